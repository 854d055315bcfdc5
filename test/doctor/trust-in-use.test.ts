import { accessSync, chmodSync, constants, mkdirSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { type ClientUse, type TrustLine, trustLineFor } from "../../src/core/trust/relevance.js";
import { PIN } from "../helpers/cli.js";
import { fakeAgent } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { cli } from "../helpers/in-process-cli.js";
import { initRepo, tempDir } from "../helpers/repo.js";

const CLIENT_BINS = ["claude", "codex", "cursor", "copilot", "gemini"];

/** This machine's PATH minus every directory holding a client's command: a machine with none installed. */
function pathWithoutClients(): string {
  const has = (dir: string, bin: string) => {
    try {
      accessSync(join(dir, bin), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  return (process.env.PATH ?? "")
    .split(delimiter)
    .filter((d) => d && !CLIENT_BINS.some((b) => has(d, b)))
    .join(delimiter);
}

/** A fresh repository after `tandem init` (every client wired), with a HOME no client has seen. */
async function fresh(): Promise<{ repo: string; env: Record<string, string | undefined> }> {
  const base = tempDir();
  const repo = initRepo(join(base, "repo"));
  const home = join(base, "home");
  mkdirSync(home, { recursive: true });
  const env = {
    HOME: home,
    PATH: pathWithoutClients(),
    GEMINI_CLI_TRUST_WORKSPACE: undefined,
    GEMINI_CLI_HOME: undefined,
    COPILOT_HOME: undefined,
    CODEX_HOME: join(home, ".codex"),
  };
  expect((await cli(["init", ...PIN], { cwd: repo, env })).code).toBe(0);
  return { repo, env };
}

describe("doctor weighs a client's trust only where the client is used", () => {
  const problem: TrustLine = {
    level: "problem",
    check: "gemini trust",
    detail: "untrusted",
    fix: "trust it",
  };
  const use = (installed: boolean, hasSessions: boolean): ClientUse => ({ installed, hasSessions });
  it.each([
    ["installed", problem, use(true, false), "problem"],
    ["with sessions here", problem, use(false, true), "problem"],
    ["neither installed nor used", problem, use(false, false), "info"],
    ["trusted, unused", { ...problem, level: "ok" as const }, use(false, false), "ok"],
  ])("a trust problem of a client %s stays %s", (_name, line, u, level) => {
    expect(trustLineFor(line, "Gemini CLI", u).level).toBe(level);
  });

  it("says what to do once the client is used when it demotes a problem", () => {
    const line = trustLineFor(problem, "Gemini CLI", use(false, false));
    expect(line.detail).toMatch(/untrusted \(Gemini CLI is not installed here and has no sessions/);
    expect(line.fix).toBe("if you start using Gemini CLI here: trust it");
  });

  it("exits 0 on a fresh init with none of the clients installed, listing Gemini's trust as info", async () => {
    const { repo, env } = await fresh();
    const r = await cli(["doctor"], { cwd: repo, env });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^· gemini trust: no rule in .* covers this project/m);
    expect(r.stdout).not.toMatch(/^✗/m);
  });

  it("counts Gemini's trust as a problem once `gemini` is on PATH", async () => {
    const { repo, env } = await fresh();
    const bin = join(tempDir(), "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "gemini"), "#!/bin/sh\nexit 0\n");
    chmodSync(join(bin, "gemini"), 0o755);
    const r = await cli(["doctor"], { cwd: repo, env: { ...env, PATH: `${bin}${delimiter}${env.PATH}` } });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^✗ gemini trust: no rule in .* covers this project/m);
  });

  it("counts Gemini's trust as a problem once a Gemini session ran in the repository, installed or not", async () => {
    const { repo, env } = await fresh();
    const start = { session_id: "g-1", cwd: repo, hook_event_name: "SessionStart", source: "startup" };
    await hook("gemini-cli", "session-start", start, { cwd: repo, env: { ...env, ...fakeAgent() } });
    const r = await cli(["doctor"], { cwd: repo, env });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^✗ gemini trust:/m);
  });
});

describe("a Claude-only machine", () => {
  it("after `tandem init` passes doctor, Codex's and Gemini's trust as notes", async () => {
    const { repo, env } = await fresh();
    const bin = join(tempDir(), "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "claude"), "#!/bin/sh\nexit 0\n");
    chmodSync(join(bin, "claude"), 0o755);
    const claudeOnly = { ...env, PATH: `${bin}${delimiter}${env.PATH}` };
    const start = { session_id: "c-1", cwd: repo, hook_event_name: "SessionStart", source: "startup" };
    await hook("claude-code", "session-start", start, { cwd: repo, env: { ...claudeOnly, ...fakeAgent() } });
    const r = await cli(["doctor"], { cwd: repo, env: claudeOnly });
    expect(r.stdout).not.toMatch(/^✗/m);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^· codex trust:/m);
    expect(r.stdout).toMatch(/^· gemini trust:/m);
  });
});
