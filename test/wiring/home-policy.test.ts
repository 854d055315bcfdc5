import { describe, expect, it } from "vitest";
import {
  allowedPrefixes,
  geminiPolicyText,
  legacyIsMine,
  policyCommands,
  policyFileName,
  policyHomeOf,
  policyRepository,
} from "../../src/wiring/gemini-policy.js";
import { type HealSeen, healNotice, mergeHeals } from "../../src/wiring/heal-notice.js";
import { contested, FIGHT_LIMIT } from "../../src/wiring/heal-plan.js";
import { planDeinit, planInit } from "../../src/wiring/plan.js";
import type { FileState, Snapshot } from "../../src/wiring/snapshot.js";

/** Issue 42, item 1: one Gemini rule per repository in the user's home (decision 0048). */

const A = "/opt/a/bin/tandem";
const B = "/opt/b/bin/tandem";
const OWN = "/home/u/.gemini/policies/tandem-r-0123456789ab.toml";
const SHARED = "/home/u/.gemini/policies/tandem.toml";

/** The one shared file an older Tandem wrote, allowing `cmds`. */
const legacy = (...cmds: string[]): string =>
  [
    "# Written by `tandem init`; `tandem deinit` deletes it.",
    "[[rule]]",
    `commandPrefix = [${cmds.flatMap((c) => [`"${c} task"`, `"${c} status"`]).join(", ")}]`,
    "",
  ].join("\n");

const state = (path: string, text: string | null): FileState => ({ path, text, executable: false });

function snap(own: string | null, shared: string | null): Snapshot {
  return {
    root: "/r",
    settings: { "gemini-cli": state("/r/.gemini/settings.json", null) },
    geminiPolicy: state(OWN, own),
    geminiLegacy: state(SHARED, shared),
    config: state("/r/.tandem/config.jsonc", null),
    gitHooks: null,
  };
}

const planFor = (path: string, plans: { path: string; action: string }[]) =>
  plans.find((p) => p.path === path)?.action ?? "not listed";

describe("the repository's own policy file", () => {
  it("is named after the repository and keyed by its path, the same each time", () => {
    expect(policyFileName("/work/my repo")).toMatch(/^tandem-my_repo-[0-9a-f]{12}\.toml$/);
    expect(policyFileName("/work/app")).toBe(policyFileName("/work/app"));
    expect(policyFileName("/work/app")).not.toBe(policyFileName("/other/app"));
  });

  it("names its repository and allows exactly the commands agents there are told", () => {
    const text = geminiPolicyText(A, "/r", "/r/.git/tandem/bin/tandem");
    expect(policyRepository(text)).toBe("/r");
    expect(allowedPrefixes(text)).toEqual([
      `${A} task`,
      `${A} status`,
      "/r/.git/tandem/bin/tandem task",
      "/r/.git/tandem/bin/tandem status",
    ]);
  });

  it.each<[string, string, string | null]>([
    ["the default home", "/home/u/.gemini/policies/tandem-r-0123456789ab.toml", "/home/u"],
    ["the shared file", "/g/.gemini/policies/tandem.toml", "/g"],
    ["a client's settings", "/r/.gemini/settings.json", null],
    ["another policy", "/home/u/.gemini/policies/team.toml", null],
  ])("is found in its Gemini home by the healer: %s", (_name, path, home) => {
    expect(policyHomeOf(path)).toBe(home);
  });
});

describe("the shared file of an older Tandem", () => {
  it.each<[string, string, string[], boolean]>([
    ["allowing only our launcher", legacy(A), [A], true],
    ["allowing our launcher and our repository launcher", legacy(A, "/r/l"), [A, "/r/l"], true],
    ["allowing another repository's launcher", legacy(B), [A], false],
    ["allowing ours and another's", legacy(A, B), [A], false],
    ["of a person's (no marker)", `[[rule]]\ncommandPrefix = ["${A} task"]\n`, [A], false],
    ["a per-repository file", geminiPolicyText(A, "/r"), [A], false],
    ["allowing nothing we read", "# Written by `tandem init`; `tandem deinit` deletes it.\n", [A], false],
  ])("is this repository's to remove when %s: %s", (_name, text, cmds, mine) => {
    expect(legacyIsMine(text, cmds)).toBe(mine);
  });

  it.each<[string, string | null, string]>([
    ["ours: init deletes it", legacy(A), "delete"],
    ["another repository's: init leaves it unlisted", legacy(B), "not listed"],
    ["absent", null, "not listed"],
  ])("%s", (_name, shared, action) => {
    const plans = planInit(snap(null, shared), A);
    expect(planFor(SHARED, plans)).toBe(action);
    expect(planFor(OWN, plans)).toBe("create");
    expect(plans.find((p) => p.path === OWN)?.after).toBe(geminiPolicyText(A, "/r"));
  });

  it("goes with deinit only when it allows nothing but this repository's commands", () => {
    const own = geminiPolicyText(A, "/r");
    const cmds = policyCommands(A, "/r");
    expect(planFor(OWN, planDeinit(snap(own, legacy(A)), cmds))).toBe("delete");
    expect(planFor(SHARED, planDeinit(snap(own, legacy(A)), cmds))).toBe("delete");
    expect(planFor(SHARED, planDeinit(snap(own, legacy(B)), cmds))).toBe("not listed");
    expect(planFor(SHARED, planDeinit(snap(own, legacy(A))))).toBe("not listed");
  });

  it("is another repository's init never a change to this one's file", () => {
    const own = geminiPolicyText(A, "/r");
    expect(planFor(OWN, planInit(snap(own, legacy(B)), A))).toBe("unchanged");
  });
});

describe("the healer stops fighting another writer", () => {
  const x = "sha-x";
  it.each<[string, string | null, (string | null)[], boolean]>([
    ["no earlier restoration", x, [], false],
    ["fewer than the limit", x, Array(FIGHT_LIMIT - 1).fill(x), false],
    ["the limit, each finding the same bytes", x, Array(FIGHT_LIMIT).fill(x), true],
    ["the limit, the newest finding other bytes", x, ["sha-y", ...Array(FIGHT_LIMIT).fill(x)], false],
    ["a removed file, however often", null, Array(FIGHT_LIMIT).fill(null), false],
  ])("%s", (_name, found, last, fight) => {
    expect(contested(found, last)).toBe(fight);
  });
});

describe("what a session is told of heals", () => {
  const heal = (over: Partial<HealSeen> = {}): HealSeen => ({
    file: "/home/u/.gemini/policies/tandem-r-0123456789ab.toml",
    changes: ["Tandem's rule differs"],
    changedAt: Date.UTC(2026, 0, 1, 12, 0, 0),
    lastCommandBy: "agent-1",
    lastCommandYours: true,
    ...over,
  });

  it("lists a file put back many times once, with the count", () => {
    const many = Array.from({ length: 235 }, (_, i) =>
      heal({ changes: i === 7 ? ["missing"] : ["Tandem's rule differs"] }),
    );
    const merged = mergeHeals(many);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ times: 235, changes: ["Tandem's rule differs", "missing"] });
    const text = healNotice(many, "tandem deinit");
    expect(text.split("\n").filter((l) => l.startsWith("- "))).toEqual([
      `- ${heal().file}: Tandem's rule differs; missing (changed at 12:00:00 UTC, put back 235 times; the last tool call before it was yours)`,
    ]);
  });

  it("blames no tool call when a Tandem wrote what was found", () => {
    const text = healNotice([heal({ byTandem: true })], "tandem deinit");
    expect(text).toContain("changed at 12:00:00 UTC by another Tandem (another repository's or install's)");
    expect(text).not.toContain("yours");
  });
});
