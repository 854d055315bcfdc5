import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkWiring } from "../../src/doctor/wiring-checks.js";
import { PIN } from "../helpers/cli.js";
import { initRepo, tempDir } from "../helpers/repo.js";
import { LAUNCHER, read, readJson, run } from "./helpers.js";

const FILE = ".github/hooks/tandem.json";

function repo(): string {
  return initRepo(join(tempDir(), "repo"));
}

describe("tandem init --clients copilot-cli", () => {
  it("writes Copilot's native hook file: every event, bash commands, timeouts in seconds", () => {
    const dir = repo();
    const res = run(["init", ...PIN, "--clients", "copilot-cli"], dir);
    expect(res.code, res.stderr).toBe(0);
    const doc = readJson(join(dir, FILE));
    expect(doc.version).toBe(1);
    expect(Object.keys(doc.hooks)).toEqual([
      "sessionStart",
      "userPromptSubmitted",
      "preToolUse",
      "postToolUse",
      "agentStop",
      "sessionEnd",
    ]);
    expect(doc.hooks.preToolUse).toEqual([
      { type: "command", bash: `${LAUNCHER} hook copilot-cli pre-tool-use`, timeoutSec: 60 },
    ]);
    expect(doc.hooks.sessionEnd[0].timeoutSec).toBe(5);
    expect(existsSync(join(dir, ".claude"))).toBe(false);
  });

  it("is idempotent, keeps a foreign hook in the same file, and deinit removes exactly its own", () => {
    const dir = repo();
    mkdirSync(join(dir, ".github/hooks"), { recursive: true });
    const foreign = { type: "command", bash: "./scripts/audit.sh", timeoutSec: 3 };
    writeFileSync(join(dir, FILE), JSON.stringify({ version: 1, hooks: { preToolUse: [foreign] } }, null, 2));
    writeFileSync(join(dir, ".github/hooks/other.json"), '{"version":1,"hooks":{}}\n');
    expect(run(["init", ...PIN, "--clients", "copilot-cli"], dir).code).toBe(0);
    const once = read(join(dir, FILE));
    expect(readJson(join(dir, FILE)).hooks.preToolUse).toEqual([
      foreign,
      { type: "command", bash: `${LAUNCHER} hook copilot-cli pre-tool-use`, timeoutSec: 60 },
    ]);
    expect(run(["init", ...PIN, "--clients", "copilot-cli"], dir).code).toBe(0);
    expect(read(join(dir, FILE))).toBe(once);
    expect(run(["init", "--check", ...PIN, "--clients", "copilot-cli"], dir).code).toBe(0);

    expect(run(["deinit", "--clients", "copilot-cli"], dir).code).toBe(0);
    expect(readJson(join(dir, FILE))).toEqual({ version: 1, hooks: { preToolUse: [foreign] } });
    expect(read(join(dir, ".github/hooks/other.json"))).toBe('{"version":1,"hooks":{}}\n');
  });

  it("deinit deletes the file when it held nothing else", () => {
    const dir = repo();
    run(["init", ...PIN, "--clients", "copilot-cli"], dir);
    expect(run(["deinit", "--clients", "copilot-cli"], dir).code).toBe(0);
    expect(existsSync(join(dir, FILE))).toBe(false);
  });

  it("init --check and doctor report a changed hook as drift", async () => {
    const dir = repo();
    run(["init", ...PIN, "--clients", "copilot-cli"], dir);
    const doc = readJson(join(dir, FILE));
    doc.hooks.preToolUse[0].timeoutSec = 1;
    delete doc.hooks.agentStop;
    writeFileSync(join(dir, FILE), JSON.stringify(doc));
    const check = run(["init", "--check", ...PIN, "--clients", "copilot-cli"], dir);
    expect(check.code).not.toBe(0);
    expect(check.stdout + check.stderr).toMatch(/preToolUse hook differs: timeoutSec is 1, want 60/);
    expect(check.stdout + check.stderr).toMatch(/agentStop hook missing/);
    const findings = await checkWiring(dir, { PATH: process.env.PATH, HOME: tempDir() });
    const drift = findings.filter((f) => f.level === "problem").map((f) => f.detail);
    expect(drift.join("\n")).toMatch(/tandem\.json.*agentStop hook missing|agentStop hook missing/s);
  });
});

describe("tandem doctor on Copilot's folder trust", () => {
  it("reads trustedFolders from Copilot's commented config.json", async () => {
    const dir = repo();
    run(["init", ...PIN, "--clients", "copilot-cli"], dir);
    const home = tempDir();
    mkdirSync(join(home, ".copilot"));
    const config = join(home, ".copilot", "config.json");
    const trust = async () =>
      (await checkWiring(dir, { PATH: process.env.PATH, HOME: home })).find(
        (f) => f.check === "copilot trust",
      );
    expect(await trust()).toMatchObject({ level: "info", detail: /no readable .*config\.json/ });
    writeFileSync(config, `// This file is managed automatically.\n{ "trustedFolders": ["/elsewhere"] }\n`);
    expect(await trust()).toMatchObject({ level: "info", detail: /does not list .* as trusted/ });
    writeFileSync(
      config,
      `// This file is managed automatically.\n{ "trustedFolders": [${JSON.stringify(dir)}] }\n`,
    );
    expect(await trust()).toMatchObject({ level: "ok" });
  });
});
