import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claudeWrite, denied, hook, ledger } from "../helpers/hooks.js";
import { initRepo, tempDir, writeFiles } from "../helpers/repo.js";

const start = (repo: string, session: string) => ({
  session_id: session,
  cwd: repo,
  hook_event_name: "SessionStart",
  source: "startup",
});
const context = (stdout: string) =>
  (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
    .additionalContext;

function repoWithConfig(config: string): string {
  const repo = initRepo(join(tempDir(), "repo"));
  writeFiles(repo, { ".tandem/config.jsonc": config });
  return repo;
}

describe("a broken config never switches coordination off", () => {
  it.each([
    ["a misspelt key", '{\n  "freshnessSecs": 5\n}', {}],
    ["broken JSON", '{ "agents": { "stopRitual": "observe" ', {}],
    ["a bad value", '{ "agents": { "freshnessSeconds": "soon", "failClosed": "yes" } }', {}],
    ["a bad environment override", "{}", { TANDEM_FRESHNESS: "soon", TANDEM_FAIL_CLOSED: "maybe" }],
  ])("refuses B's write of A's claimed file as a conflict with %s", (_name, config, env) => {
    const repo = repoWithConfig(config);
    const a = hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "f.txt"), { cwd: repo, env });
    expect(a.code).toBe(0);
    expect(denied(a)).toBeNull();
    const b = hook("claude-code", "pre-tool-use", claudeWrite(repo, "B", "f.txt"), { cwd: repo, env });
    expect(b.code).toBe(0);
    expect(denied(b)).toMatch(/f\.txt: held by agent-\w+/);
    const { claims, events } = ledger(repo);
    expect(claims).toEqual([{ path: "f.txt", holder: "A" }]);
    expect(events.map((e) => e.kind)).toContain("claim.denied");
    expect(events.map((e) => e.kind)).not.toContain("hook.error");
  });

  it("tells a starting session what is wrong with the config, where, and the fix", () => {
    const repo = repoWithConfig('{\n  "freshnessSecs": 5,\n  "agents": { "stopRitual": "sometimes" }\n}');
    const r = hook("claude-code", "session-start", start(repo, "A"), { cwd: repo });
    expect(r.code).toBe(0);
    const text = context(r.stdout);
    expect(text).toMatch(/^Tandem: you are agent-\w+\./);
    expect(text).toContain("Tandem's configuration has 2 problems. Coordination stays on");
    expect(text).toContain(
      '- .tandem/config.jsonc:2:3: unknown key "freshnessSecs" (did you mean "agents.freshnessSeconds"?); Tandem ignores it, so agents.freshnessSeconds stays 600. Fix: write it as "freshnessSeconds" inside "agents".',
    );
    expect(text).toContain(
      '- .tandem/config.jsonc:3:15: "agents.stopRitual" is "sometimes", but it must be one of "enforce", "observe" or "off"; Tandem uses "enforce" instead. Fix: set it to one of "enforce", "observe" or "off".',
    );
    expect(text).toContain("No other live agent sessions right now.");
  });

  it("says nothing about the config when it is sound", () => {
    const repo = repoWithConfig('{ "agents": { "stopRitual": "observe" } }');
    const text = context(hook("claude-code", "session-start", start(repo, "A"), { cwd: repo }).stdout);
    expect(text).not.toContain("configuration");
  });
});
