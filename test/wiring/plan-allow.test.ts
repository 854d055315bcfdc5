import { describe, expect, it } from "vitest";
import { type FilePlan, planDeinit, planInit } from "../../src/wiring/plan.js";
import type { FileState, Snapshot } from "../../src/wiring/snapshot.js";

function state(path: string, text: string | null): FileState {
  return { path, text, executable: false };
}

/** Claude's two files as init reads them: the committed settings and the local one. */
function snap(settings: string | null, local: string | null, root = "/r"): Snapshot {
  return {
    root,
    settings: { "claude-code": state(`${root}/.claude/settings.json`, settings) },
    claudeLocal: state(`${root}/.claude/settings.local.json`, local),
    config: state(`${root}/.tandem/config.jsonc`, "{}"),
    gitHooks: null,
  };
}

const byFile = (plans: FilePlan[]) => ({
  settings: plans.find((p) => p.path.endsWith("settings.json"))!,
  local: plans.find((p) => p.path.endsWith("settings.local.json"))!,
});
const allow = (p: FilePlan): unknown => (p.after === null ? null : JSON.parse(p.after).permissions?.allow);

describe("where init puts Claude's allow rules", () => {
  it("writes a PATH launcher's rules into the committed file and leaves the local file absent", () => {
    const { settings, local } = byFile(planInit(snap(null, null), "tandem"));
    expect(allow(settings)).toEqual(["Bash(tandem task:*)", "Bash(tandem status:*)"]);
    expect(settings.summary).toBe("7 hooks, 2 allow rules");
    expect(local).toMatchObject({ action: "unchanged", after: null });
  });

  it("writes a devDependency's exact rules into the local file, none into the committed one", () => {
    const { settings, local } = byFile(planInit(snap(null, null), "node_modules/.bin/tandem"));
    expect(allow(settings)).toBeUndefined();
    expect(local.action).toBe("create");
    expect(JSON.parse(local.after!)).toEqual({
      permissions: {
        allow: ["Bash(/r/node_modules/.bin/tandem task:*)", "Bash(/r/node_modules/.bin/tandem status:*)"],
      },
    });
  });

  it("moves the rules when the launcher changes, keeping the user's local settings", () => {
    const before = JSON.stringify({
      permissions: { allow: ["Bash(tandem task:*)", "Bash(tandem status:*)"] },
    });
    const local = JSON.stringify({ model: "x", permissions: { allow: ["Bash(make:*)"] } });
    const plans = byFile(planInit(snap(before, local), "node_modules/.bin/tandem"));
    expect(allow(plans.settings)).toBeUndefined();
    expect(plans.settings.changes).toContain("Tandem rule Bash(tandem task:*) is not wanted");
    expect(JSON.parse(plans.local.after!)).toEqual({
      model: "x",
      permissions: {
        allow: [
          "Bash(make:*)",
          "Bash(/r/node_modules/.bin/tandem task:*)",
          "Bash(/r/node_modules/.bin/tandem status:*)",
        ],
      },
    });
  });

  it("reports a missing rule as a difference and nothing once it is there", () => {
    const wired = planInit(snap(null, null), "tandem")[0]!.after!;
    const oneGone = wired.replace(/,\s*"Bash\(tandem status:\*\)"/, "");
    expect(byFile(planInit(snap(oneGone, null), "tandem")).settings.changes).toEqual([
      "allow rule Bash(tandem status:*) missing",
    ]);
    expect(byFile(planInit(snap(wired, null), "tandem")).settings.action).toBe("unchanged");
  });
});

describe("deinit and Claude's allow rules", () => {
  it("deletes files that held nothing but Tandem's hooks and rules", () => {
    const init = byFile(planInit(snap(null, null), "node_modules/.bin/tandem"));
    const out = byFile(planDeinit(snap(init.settings.after, init.local.after)));
    expect(out.settings.action).toBe("delete");
    expect(out.local).toMatchObject({ action: "delete", summary: "held nothing but 2 allow rules" });
  });

  it("removes exactly Tandem's rules and keeps the user's", () => {
    const local =
      '{\n  // mine\n  "permissions": {\n    "allow": [\n      "Bash(make:*)",\n      "Bash(/r/node_modules/.bin/tandem task:*)",\n      "Bash(/r/node_modules/.bin/tandem status:*)"\n    ]\n  }\n}\n';
    const out = byFile(planDeinit(snap(null, local))).local;
    expect(out).toMatchObject({ action: "update", summary: "removed 2 allow rules" });
    expect(out.after).toBe(
      '{\n  // mine\n  "permissions": {\n    "allow": [\n      "Bash(make:*)"\n    ]\n  }\n}\n',
    );
  });

  it("leaves an absent local file absent", () => {
    expect(byFile(planDeinit(snap(null, null))).local).toMatchObject({ action: "unchanged", after: null });
  });
});
