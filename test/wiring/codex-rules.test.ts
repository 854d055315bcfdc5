import { describe, expect, it } from "vitest";
import { codexLocalRulesText, codexRulesText } from "../../src/clients/codex/rules.js";
import { type FilePlan, planDeinit, planInit } from "../../src/wiring/plan.js";
import type { FileState, Snapshot } from "../../src/wiring/snapshot.js";

const ruleLine = (text: string | null) => text?.split("\n").find((l) => l.startsWith("prefix_rule")) ?? null;

describe("Codex's prefix rule for the ritual", () => {
  it.each([
    ["tandem", 'prefix_rule(pattern = ["tandem", ["task", "status"]], decision = "allow")'],
    ["npx tandem", 'prefix_rule(pattern = ["npx", "tandem", ["task", "status"]], decision = "allow")'],
    [
      "/usr/bin/node /opt/t/tandem.cjs",
      'prefix_rule(pattern = ["/usr/bin/node", "/opt/t/tandem.cjs", ["task", "status"]], decision = "allow")',
    ],
    [
      "'/opt/my node/node' '/opt/it'\\''s/tandem.cjs'",
      `prefix_rule(pattern = ["/opt/my node/node", "/opt/it's/tandem.cjs", ["task", "status"]], decision = "allow")`,
    ],
    // A clone's absolute path would be committed: no portable rule exists.
    ["node_modules/.bin/tandem", null],
    // Words Tandem cannot split exactly are left without a rule rather than a wrong one.
    ['"$HOME/bin/tandem"', null],
  ])("%s", (launcher, line) => {
    expect(ruleLine(codexRulesText(launcher))).toBe(line);
  });
});

describe("this clone's Codex rule, for the command agents are told", () => {
  const REPO = "/r/.git/tandem/bin/tandem";
  it.each<[string, string, string, string | null]>([
    ["agents run the launcher, which the committed rule names", "tandem", "tandem", null],
    [
      "a login shell cannot find `tandem`: the repository launcher",
      "tandem",
      REPO,
      `prefix_rule(pattern = ["${REPO}", ["task", "status"]], decision = "allow")`,
    ],
    [
      "a devDependency, which no committed rule can name",
      "node_modules/.bin/tandem",
      "/r/node_modules/.bin/tandem",
      'prefix_rule(pattern = ["/r/node_modules/.bin/tandem", ["task", "status"]], decision = "allow")',
    ],
    [
      "a quoted path is unquoted into one word",
      "tandem",
      "'/a b/.git/tandem/bin/tandem'",
      'prefix_rule(pattern = ["/a b/.git/tandem/bin/tandem", ["task", "status"]], decision = "allow")',
    ],
    ["a command that is not a path of this machine", "tandem", "npx tandem", null],
  ])("%s", (_name, launcher, agent, line) => {
    expect(ruleLine(codexLocalRulesText(launcher, agent))).toBe(line);
  });

  it("is planned beside the committed file, and deleted when agents run the launcher again", () => {
    const local = state("/r/.codex/rules/tandem-local.rules", null);
    const s = { ...snap(null), codexLocal: local };
    const made = planInit(s, "tandem", undefined, REPO).find((p) => p.path === local.path)!;
    expect(made).toMatchObject({ action: "create" });
    expect(made.after).toContain("for this clone only");
    const after = { ...s, codexLocal: { ...local, text: made.after } };
    expect(planInit(after, "tandem", undefined, "tandem").find((p) => p.path === local.path)!.action).toBe(
      "delete",
    );
    expect(planDeinit(after).find((p) => p.path === local.path)!.action).toBe("delete");
  });
});

function state(path: string, text: string | null): FileState {
  return { path, text, executable: false };
}

function snap(rules: string | null): Snapshot {
  return {
    root: "/r",
    settings: { codex: state("/r/.codex/hooks.json", null) },
    codexRules: state("/r/.codex/rules/tandem.rules", rules),
    config: state("/r/.tandem/config.jsonc", "{}"),
    gitHooks: null,
  };
}

const rulesOf = (plans: FilePlan[]) => plans.find((p) => p.kind === "rules")!;

describe("planning .codex/rules/tandem.rules", () => {
  it("creates it, then finds nothing to do", () => {
    const made = rulesOf(planInit(snap(null), "tandem"));
    expect(made).toMatchObject({ action: "create", changes: ["missing"] });
    expect(rulesOf(planInit(snap(made.after), "tandem")).action).toBe("unchanged");
  });

  it("rewrites its own file for a new launcher and deletes it when no portable rule exists", () => {
    const old = codexRulesText("npx tandem");
    expect(rulesOf(planInit(snap(old), "tandem"))).toMatchObject({
      action: "update",
      after: codexRulesText("tandem"),
    });
    expect(rulesOf(planInit(snap(old), "node_modules/.bin/tandem")).action).toBe("delete");
    expect(rulesOf(planInit(snap(null), "node_modules/.bin/tandem")).action).toBe("unchanged");
  });

  it("refuses a file of the same name it did not write", () => {
    const plan = rulesOf(planInit(snap('prefix_rule(pattern = ["ls"], decision = "allow")\n'), "tandem"));
    expect(plan.action).toBe("refuse");
    expect(plan.reason).toMatch(/not written by Tandem; move it aside/);
  });

  it("is deleted by deinit, and a foreign one is kept", () => {
    expect(rulesOf(planDeinit(snap(codexRulesText("tandem")))).action).toBe("delete");
    expect(rulesOf(planDeinit(snap("# mine\n"))).action).toBe("unchanged");
  });
});
