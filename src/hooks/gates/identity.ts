/** A shell command that sets another live session's identity (decision 0021). */
import { refusal } from "../../core/rules/catalog.js";
import { identityVerdict } from "../identity-guard.js";
import { defineGate } from "./gate.js";

export default defineGate({
  id: "identity",
  order: 20,
  rules: ["identity"],
  reads: ["found", "tool"],
  run(ctx, { found, tool }) {
    const identity = found.shell ? identityVerdict(ctx, tool) : null;
    if (!identity) return null;
    return {
      verdict: refusal("identity", { variable: identity.variable, claimed: identity.claimed }),
      refused: [{ path: identity.variable, reason: "identity", holder: identity.holder }],
    };
  },
});
