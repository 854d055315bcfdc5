import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RULE_IDS } from "../../src/clients/rule-ids.js";
import { RULES, refusal, uncatalogued } from "../../src/core/rules/catalog.js";
import { defineGate, type Gate } from "../../src/hooks/gates/gate.js";
import { GATES } from "../../src/hooks/gates/index.js";

/** The folder's files that are not gates: what a gate is, its facts, the runner and the list. */
const MACHINERY = ["claim-decision.ts", "facts.ts", "gate.ts", "index.ts", "record.ts", "run.ts"];
const DIR = join(import.meta.dirname, "../../src/hooks/gates");

/** What a registry breaks: rules without a catalog entry, repeated ids or orders. */
function breaches(gates: readonly Gate[], catalog: Readonly<Record<string, unknown>> = RULES): string[] {
  const out = gates.flatMap((g) =>
    uncatalogued(g.rules, catalog).map((r) => `${g.id}: rule ${r} has no catalog entry`),
  );
  const ids = gates.map((g) => g.id);
  const orders = gates.map((g) => g.order);
  if (new Set(ids).size !== ids.length) out.push("a gate id is listed twice");
  if (new Set(orders).size !== orders.length) out.push("two gates share an order");
  return out;
}

describe("the pre-tool gate registry", () => {
  it("lists every gate file once, in order, each rule in the catalog", () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith(".ts") && !MACHINERY.includes(f));
    expect(GATES.map((g) => `${g.id}.ts`).sort()).toEqual(files.sort());
    expect(GATES.map((g) => g.order)).toEqual([...GATES.map((g) => g.order)].sort((a, b) => a - b));
    expect(breaches(GATES)).toEqual([]);
  });

  it("fails when a gate's rule has no entry in a copy of the catalog", () => {
    const copy: Record<string, unknown> = { ...RULES };
    delete copy["left-work"];
    expect(breaches(GATES, copy)).toEqual(["left-work: rule left-work has no catalog entry"]);
  });

  it("fails when a planted gate names a rule outside the closed list, or repeats an order", () => {
    const planted = { ...GATES[0]!, id: "planted", rules: ["no-such-rule"] } as unknown as Gate;
    expect(breaches([...GATES, planted])).toEqual([
      "planted: rule no-such-rule has no catalog entry",
      "two gates share an order",
    ]);
  });

  it("every pre-tool rule has a gate, and every gate rule a place in the closed list", () => {
    const gated = new Set(GATES.flatMap((g) => g.rules));
    for (const r of gated) expect(RULE_IDS).toContain(r);
    expect(gated.size).toBe(GATES.reduce((n, g) => n + g.rules.length, 0));
  });

  it("holds a gate to its rules and its declared facts at compile time", () => {
    const gate = defineGate({
      id: "example",
      order: 1,
      rules: ["hook-call"],
      reads: ["found"],
      run: (_ctx, { found }) =>
        found.tandemHook ? { verdict: refusal("hook-call", { agentCmd: "tandem" }) } : null,
    });
    expect(gate.rules).toEqual(["hook-call"]);
    defineGate({
      id: "undeclared-rule",
      order: 2,
      rules: ["hook-call"],
      reads: ["found"],
      // @ts-expect-error: git-impact is not among this gate's rules
      run: () => ({ verdict: refusal("git-impact", { findings: [], now: 0 }) }),
    });
    defineGate({
      id: "undeclared-fact",
      order: 3,
      rules: ["hook-call"],
      reads: ["found"],
      // @ts-expect-error: the plan is not among the facts this gate reads
      run: (_ctx, facts) => (facts.plan ? null : null),
    });
    // @ts-expect-error: a rule outside src/clients/rule-ids.ts has no catalog entry
    expect(() => refusal("no-such-rule", {})).toThrow();
  });
});
