import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tandem } from "../helpers/cli.js";
import { claudeWrite, hook } from "../helpers/hooks.js";
import { initRepo, tempDir, writeFiles } from "../helpers/repo.js";

const BROKEN = '{\n  "freshnessSecs": 5,\n  "agents": { "stopRitual": "observe" }\n}';

function sessionIn(config: string) {
  const repo = initRepo(join(tempDir(), "repo"));
  writeFiles(repo, { ".tandem/config.jsonc": config });
  hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "a.txt"), { cwd: repo });
  return { repo, env: { TANDEM_SESSION: "A" } };
}

describe("tandem status with a broken config", () => {
  it("names each config problem in the box and prints it in full with its fix below", () => {
    const { repo, env } = sessionIn(BROKEN);
    const r = tandem(["status"], { cwd: repo, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\| warning {2}\.tandem\/config\.jsonc:2:3: unknown key "freshnessSecs" +\|$/m);
    // The valid key beside the typo is kept.
    expect(r.stdout).toMatch(/\| warning {2}stop ritual is "observe" +\|/);
    const after = r.stdout.slice(r.stdout.lastIndexOf("+\n") + 2);
    expect(after).toBe(
      "Config problems (coordination stays on; Tandem ignores what it cannot use and falls back to its defaults):\n" +
        '- .tandem/config.jsonc:2:3: unknown key "freshnessSecs" (did you mean "agents.freshnessSeconds"?); Tandem ignores it, so agents.freshnessSeconds stays 600. Fix: write it as "freshnessSeconds" inside "agents".\n',
    );
  });

  it("lists the problems as data in --json, with the message", () => {
    const { repo, env } = sessionIn(BROKEN);
    const r = tandem(["status", "--json"], { cwd: repo, env: { ...env, TANDEM_FRESHNESS: "0" } });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { configProblems: Record<string, unknown>[]; warnings: string[] };
    expect(out.configProblems).toEqual([
      {
        source: join(repo, ".tandem/config.jsonc"),
        kind: "unknown-key",
        key: "freshnessSecs",
        line: 2,
        column: 3,
        problem: "is not a key Tandem knows",
        allowed:
          '"$schema", "init", "guard", "agents", "remote", "land", "store", "retention", "server" and "subagents"',
        didYouMean: "agents.freshnessSeconds",
        using: "600",
        message: expect.stringMatching(/^\.tandem\/config\.jsonc:2:3: unknown key "freshnessSecs"/),
      },
      expect.objectContaining({
        source: "environment",
        key: "TANDEM_FRESHNESS",
        message:
          'environment: TANDEM_FRESHNESS is "0", but it must be a whole number of seconds above 0; Tandem uses 600 instead. Fix: set TANDEM_FRESHNESS to a whole number of seconds above 0, or unset it.',
      }),
    ]);
    expect(out.warnings).toContain('.tandem/config.jsonc:2:3: unknown key "freshnessSecs"');
  });

  it("adds nothing when the config is sound", () => {
    const { repo, env } = sessionIn('{ "agents": { "failClosed": true } }');
    const r = tandem(["status"], { cwd: repo, env });
    expect(r.stdout).not.toMatch(/config/i);
    expect(
      (JSON.parse(tandem(["status", "--json"], { cwd: repo, env }).stdout) as { configProblems: unknown[] })
        .configProblems,
    ).toEqual([]);
  });
});
