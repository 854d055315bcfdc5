/**
 * The claims (docs/product.md §4.3): every target acquired, or none, in one transaction that
 * also records the denial; a refused wiring edit names its own rule.
 */
import { WIRING_RULE } from "../../core/guards/wiring.js";
import { refusal } from "../../core/rules/catalog.js";
import { defineGate } from "./gate.js";

export default defineGate({
  id: "claims",
  order: 90,
  rules: ["claim-conflict", "line-conflict", "protected-wiring"],
  reads: ["decision"],
  run(ctx, { decision }) {
    if (decision.allow) return null;
    if (decision.lines && decision.lines.length > 0)
      return {
        verdict: refusal("line-conflict", { lines: decision.lines, held: decision.conflicts, now: ctx.now }),
      };
    const facts = { decision, now: ctx.now };
    const wiring = decision.refused.some((r) => r.rule === WIRING_RULE);
    return { verdict: wiring ? refusal("protected-wiring", facts) : refusal("claim-conflict", facts) };
  },
});
