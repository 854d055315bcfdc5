/** Tandem's own store named by a call: peers' work too (decision 0023). */
import { refusal } from "../../core/rules/catalog.js";
import { agentCmd } from "../context.js";
import { stateRefused } from "../protected.js";
import { defineGate } from "./gate.js";

export default defineGate({
  id: "tandem-state",
  order: 40,
  rules: ["tandem-state"],
  reads: ["targets"],
  run(ctx, { targets }) {
    const state = stateRefused(ctx, targets);
    if (state.length === 0) return null;
    return {
      verdict: refusal("tandem-state", { refused: state, agentCmd: agentCmd(ctx) }),
      refused: state.map((r) => ({ path: r.raw, reason: "tandem-state", holder: null })),
    };
  },
});
