import { describe, expect, it } from "vitest";
import { isTandemRule } from "../../src/wiring/allow-rules.js";
import { type FilePlan, planDeinit, planInit } from "../../src/wiring/plan.js";
import type { FileState, Snapshot } from "../../src/wiring/snapshot.js";

const QWEN = ".qwen/settings.json";

function state(path: string, text: string | null): FileState {
  return { path, text, executable: false };
}

/** Qwen Code's project settings as init reads them (Qwen has no uncommitted settings file). */
function snap(settings: string | null, root = "/r"): Snapshot {
  return {
    root,
    settings: { "qwen-code": state(`${root}/${QWEN}`, settings) },
    config: state(`${root}/.tandem/config.jsonc`, "{}"),
    gitHooks: null,
  };
}

const qwenPlan = (plans: FilePlan[]) => plans.find((p) => p.path.endsWith(QWEN))!;
const allow = (p: FilePlan): string[] | undefined =>
  p.after === null ? undefined : JSON.parse(p.after).permissions?.allow;

/**
 * Qwen Code 0.24.4's reading of a shell rule, as its source documents it: `Bash(<p>:*)` is `<p>`
 * alone or followed by a space and anything; `a && b` is split and each part must be allowed.
 */
function qwenAllows(rules: readonly string[], command: string): boolean {
  const prefixes = rules.map((r) => /^Bash\((.*):\*\)$/.exec(r)?.[1]).filter((p): p is string => !!p);
  return command
    .split("&&")
    .map((part) => part.trim())
    .every((part) => prefixes.some((p) => part === p || part.startsWith(`${p} `)));
}

describe("Qwen Code's allow rules for the ritual", () => {
  it("init writes exactly the ritual's two rules into Qwen's settings", () => {
    const rules = allow(qwenPlan(planInit(snap(null), "tandem")));
    expect(rules).toEqual(["Bash(tandem task:*)", "Bash(tandem status:*)"]);
    for (const r of rules!) expect(isTandemRule(r)).toBe(true);
  });

  it.each([
    ['tandem task "fix the parser" && tandem status', true],
    ["tandem status --end-turn", true],
    ["tandem release --session x --force /r", false],
    ["tandem discard f.txt --yes", false],
    ["tandem taskforce", false],
    ["tandem task x && rm -rf .", false],
  ])("under them Qwen runs `%s` without asking: %s", (command, runs) => {
    const rules = allow(qwenPlan(planInit(snap(null), "tandem")))!;
    expect(qwenAllows(rules, command)).toBe(runs);
  });

  it("writes no clone's absolute path into the committed file: a devDependency gets no rule", () => {
    expect(allow(qwenPlan(planInit(snap(null), "node_modules/.bin/tandem")))).toBeUndefined();
  });

  it("keeps the person's own rules and settings, replaces an old launcher's, and deinit takes only its own", () => {
    const before = JSON.stringify({
      $version: 4,
      model: { name: "x" },
      permissions: { allow: ["Bash(make:*)", "Bash(npx tandem task:*)"] },
    });
    const init = qwenPlan(planInit(snap(before), "tandem"));
    expect(allow(init)).toEqual(["Bash(make:*)", "Bash(tandem task:*)", "Bash(tandem status:*)"]);
    const after = qwenPlan(planDeinit(snap(init.after)));
    const doc = JSON.parse(after.after!);
    expect(doc.permissions.allow).toEqual(["Bash(make:*)"]);
    expect(doc.model).toEqual({ name: "x" });
  });
});
