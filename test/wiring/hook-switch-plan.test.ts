import { describe, expect, it } from "vitest";
import { healPlan, statesOf } from "../../src/wiring/heal-plan.js";
import type { InitRecord } from "../../src/wiring/init-record.js";
import { planDeinit, planInit } from "../../src/wiring/plan.js";
import { formatSummary } from "../../src/wiring/report.js";
import type { FileState, Snapshot } from "../../src/wiring/snapshot.js";

/**
 * Codex's `.codex/config.toml` as init's planner and the heal see it (docs/decisions/0046): a file
 * of the person's that Tandem only ever takes `[features] hooks = false` out of.
 */

const L = "tandem";
const RECORD: InitRecord = { command: L, clients: ["codex"], gitHooks: false };
const HOOKS = "/r/.codex/hooks.json";
const SWITCH = "/r/.codex/config.toml";
const RULES = "/r/.codex/rules/tandem.rules";
const LOCAL = "/r/.codex/rules/tandem-local.rules";
const CONFIG = "/r/.tandem/config.jsonc";

const state = (path: string, text: string | null): FileState => ({ path, text, executable: false });

function snap(texts: Record<string, string | null>): Snapshot {
  const at = (p: string) => state(p, p in texts ? texts[p]! : null);
  return {
    root: "/r",
    settings: { codex: at(HOOKS) },
    codexRules: at(RULES),
    codexLocal: at(LOCAL),
    switches: { codex: at(SWITCH) },
    config: at(CONFIG),
    gitHooks: null,
  };
}

const PERSON = 'model = "o3"\n\n[features]\ngoals = false\n';
/** What `tandem init` leaves beside the person's config.toml. */
const WIRED: Record<string, string | null> = {
  ...Object.fromEntries(planInit(snap({}), L, RECORD).map((p) => [p.path, p.after])),
  [SWITCH]: PERSON,
};
const lastGood = (p: string) => WIRED[p] ?? null;
const heal = (changes: Record<string, string | null>) =>
  healPlan(snap({ ...WIRED, ...changes }), L, RECORD, lastGood);

describe("Codex's config.toml in init's plan", () => {
  it("takes out a setting that switches Codex's hooks off, and says so", () => {
    const plan = planInit(snap({ [SWITCH]: `${PERSON}hooks = false\n` }), L, RECORD).find(
      (p) => p.path === SWITCH,
    );
    expect(plan).toMatchObject({
      kind: "switch",
      action: "update",
      after: PERSON,
      summary: "switched Codex's hooks back on",
    });
    expect(plan?.changes).toEqual([
      expect.stringMatching(/^`hooks = false` on line 5 set features.hooks = false/),
    ]);
  });

  it("neither creates the file nor lists it when nothing in it switches the hooks off", () => {
    for (const text of [null, PERSON]) {
      const plans = planInit(snap({ [SWITCH]: text }), L, RECORD);
      expect(plans.find((p) => p.path === SWITCH)).toMatchObject({ action: "unchanged", after: null });
      expect(formatSummary("/r", plans, "init", "write")).not.toMatch(/config\.toml/);
    }
  });

  it("is recorded with the wiring, and deinit leaves it alone", () => {
    expect(statesOf(snap({})).map((f) => f.path)).toContain(SWITCH);
    expect(planDeinit(snap({ [SWITCH]: `${PERSON}hooks = false\n` })).map((p) => p.path)).not.toContain(
      SWITCH,
    );
  });
});

describe("Codex's config.toml in the heal", () => {
  it("takes out only the setting, keeping the person's file as found", () => {
    const found = `${PERSON}codex_hooks = false # off\n`;
    expect(heal({ [SWITCH]: found })).toEqual([
      {
        path: SWITCH,
        text: PERSON,
        executable: false,
        changes: [expect.stringMatching(/^`codex_hooks = false` on line 5 .* removed it$/)],
        displaced: null,
      },
    ]);
  });

  it.each<[string, string | null]>([
    ["a person's new setting", `${PERSON}fast_mode = false\n`],
    ["the file removed", null],
    ["a file Codex cannot read either", "[features\nhooks = false\n"],
  ])("writes nothing for %s", (_n, text) => {
    expect(heal({ [SWITCH]: text })).toEqual([]);
  });
});
