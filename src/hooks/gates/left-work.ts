/** A write over work an ended session left (decision 0029): refused once a turn, its bytes saved. */
import { refusal } from "../../core/rules/catalog.js";
import { agentPrinter } from "../context.js";
import { leftToRefuseNow } from "../left-work.js";
import { defineGate } from "./gate.js";

export default defineGate({
  id: "left-work",
  order: 80,
  rules: ["left-work"],
  reads: ["found", "plan"],
  run(ctx, { found, plan }) {
    const items = leftToRefuseNow(ctx, found, plan.claim);
    if (items.length === 0) return null;
    return {
      verdict: refusal("left-work", { items, now: ctx.now, printer: agentPrinter(ctx) }),
      refused: items.map((i) => ({ path: i.path, reason: "left-work", holder: i.owner.id })),
    };
  },
});
