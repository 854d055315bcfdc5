import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkCodexTrust,
  defaultTrustDeps,
  describeTrust,
  type TrustDeps,
} from "../../src/wiring/codex-trust.js";
import { ensureClients } from "../e2e/harness/install-clients.js";
import { trustCodexHooks, writeCodexConfig } from "../e2e/harness/run-codex.js";
import { clientEnv } from "../e2e/harness/spawn.js";
import { PIN } from "../helpers/cli.js";
import { initRepo, tempDir } from "../helpers/repo.js";
import { run } from "./helpers.js";

const fake = (listHooks: TrustDeps["listHooks"]): TrustDeps => ({ findCodex: () => "/bin/codex", listHooks });

describe("reporting Codex hook trust after init", () => {
  it("reports our hooks as untrusted with the real Codex, and as trusted once the user trusted them", async () => {
    const bins = await ensureClients();
    const dir = initRepo(join(tempDir(), "repo"));
    expect(run(["init", ...PIN, "--clients", "codex", "--no-git-hooks"], dir).code).toBe(0);
    const codexHome = join(dir, "..", "codex-home");
    // Codex loads a project's .codex/ only once the project itself is trusted.
    writeCodexConfig({ codexHome, baseUrl: "http://127.0.0.1:9/v1", cwd: dir });
    const env = clientEnv({ CODEX_HOME: codexHome });
    const deps: TrustDeps = { ...defaultTrustDeps, findCodex: () => bins.codex };

    const report = await checkCodexTrust(dir, env, deps);
    expect(report).toMatchObject({ state: "listed", total: 6 });
    expect(report.state === "listed" && report.pending.map((p) => p.status)).toEqual(
      Array(6).fill("untrusted"),
    );
    expect(describeTrust(report)).toMatch(
      /^Codex: 6 of 6 Tandem hooks need review .*SessionStart \(untrusted\).*\/hooks/,
    );

    await trustCodexHooks({ bin: bins.codex, codexHome, cwd: dir });
    const after = await checkCodexTrust(dir, env, deps);
    expect(describeTrust(after)).toBe("Codex: all 6 Tandem hooks are trusted.");
  });

  it("says how to trust later when codex is not on PATH", async () => {
    const report = await checkCodexTrust("/r", { PATH: tempDir() });
    expect(report).toEqual({ state: "no-codex" });
    expect(describeTrust(report)).toMatch(/not on PATH, so hook trust could not be checked; .*\/hooks/);
  });

  it("never hangs on a Codex that does not answer", async () => {
    const report = await checkCodexTrust(
      "/r",
      {},
      fake(() => new Promise(() => {})),
      50,
    );
    expect(report).toEqual({ state: "failed", message: "no answer within 0.05 s" });
  });

  it("explains that an untrusted project's hooks are not loaded at all", async () => {
    const report = await checkCodexTrust(
      "/r",
      {},
      fake(async () => [{ cwd: "/r", hooks: [], errors: [], warnings: [] }]),
    );
    expect(describeTrust(report)).toMatch(/does not load this project's \.codex\/hooks\.json yet/);
  });
});
