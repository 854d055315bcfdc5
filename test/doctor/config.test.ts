import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PIN, tandem } from "../helpers/cli.js";
import { initRepo, tempDir, writeFiles } from "../helpers/repo.js";

const NO_CODEX = { PATH: "/usr/bin:/bin" };

/** A repository wired by `tandem init`, so the config is the only thing doctor can find wrong. */
function wiredWith(config: string): string {
  const repo = initRepo(join(tempDir(), "repo"));
  expect(tandem(["init", ...PIN, "--clients", "claude-code"], { cwd: repo, env: NO_CODEX }).code).toBe(0);
  writeFiles(repo, { ".tandem/config.jsonc": config });
  return repo;
}

interface Check {
  level: string;
  check: string;
  detail: string;
  fix?: string;
}

describe("tandem doctor and the config", () => {
  it("runs with a broken config and reports each problem with its fix, exiting 1", () => {
    const repo = wiredWith('{\n  "freshnessSecs": 5,\n  "agents": { "failClosed": "yes" }\n');
    const r = tandem(["doctor"], { cwd: repo, env: NO_CODEX });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      '✗ config: .tandem/config.jsonc:2:3: unknown key "freshnessSecs" (did you mean "agents.freshnessSeconds"?); Tandem ignores it, so agents.freshnessSeconds stays 600\n' +
        '    fix: write it as "freshnessSeconds" inside "agents"\n',
    );
    expect(r.stdout).toContain(
      '✗ config: .tandem/config.jsonc:3:15: "agents.failClosed" is "yes", but it must be true or false; Tandem uses false instead\n' +
        "    fix: set it to true or false\n",
    );
    expect(r.stdout).toMatch(
      /✗ config: \.tandem\/config\.jsonc:4:1: the JSON is broken: a closing \} is expected/,
    );
    // The rest of the checks still ran.
    expect(r.stdout).toMatch(/✓ client hooks: claude-code and the git hooks are wired and current/);
    expect(r.stdout).toMatch(/3 problem\(s\) found; each is listed above with its fix\./);
  });

  it("lists config problems as problem checks in --json", () => {
    const repo = wiredWith('{ "agents": { "stopRitual": "sometimes" } }');
    const r = tandem(["doctor", "--json"], { cwd: repo, env: { ...NO_CODEX, TANDEM_FAIL_CLOSED: "on" } });
    expect(r.code).toBe(1);
    const checks = (JSON.parse(r.stdout) as { checks: Check[] }).checks.filter((c) => c.check === "config");
    expect(checks).toEqual([
      {
        level: "problem",
        check: "config",
        detail:
          '.tandem/config.jsonc:1:15: "agents.stopRitual" is "sometimes", but it must be one of "enforce", "observe" or "off"; Tandem uses "enforce" instead',
        fix: 'set it to one of "enforce", "observe" or "off"',
      },
      {
        level: "problem",
        check: "config",
        detail: 'environment: TANDEM_FAIL_CLOSED is "on", but it must be 1 or 0; Tandem uses false instead',
        fix: "set TANDEM_FAIL_CLOSED to 1 or 0, or unset it",
      },
    ]);
  });

  it("says the config was read cleanly, and passes", () => {
    const repo = wiredWith('{ "agents": { "stopRitual": "observe" } }');
    const r = tandem(["doctor"], { cwd: repo, env: NO_CODEX });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("✓ config: .tandem/config.jsonc read without problems\n");
    expect(r.stdout).toMatch(/No problems found\./);
  });

  it("shows the user config's ignored filesystem authority as a note", () => {
    const repo = wiredWith("{}");
    const xdg = tempDir();
    writeFiles(xdg, {
      "tandem/config.jsonc":
        '{ "agents": { "finalizationRoots": [{ "path": "/", "disposition": "output" }] } }',
    });
    const r = tandem(["doctor", "--json"], { cwd: repo, env: { ...NO_CODEX, XDG_CONFIG_HOME: xdg } });
    expect(r.code).toBe(0);
    const checks = (JSON.parse(r.stdout) as { checks: Check[] }).checks.filter((c) => c.check === "config");
    expect(checks.map((c) => c.level)).toEqual(["ok", "info"]);
    expect(checks[1]!.detail).toMatch(/agents\.finalizationRoots is ignored in the user config/);
  });
});
