/** A push to refs/tandem/* on the remote: other checkouts' presence (decision 0023). */
import { refusal } from "../../core/rules/catalog.js";
import { agentPrinter } from "../context.js";
import { defineGate } from "./gate.js";

export default defineGate({
  id: "tandem-refs",
  order: 30,
  rules: ["tandem-refs"],
  reads: ["found"],
  run: (ctx, { found }) =>
    found.protectedRefs.length > 0
      ? {
          verdict: refusal("tandem-refs", { pushes: found.protectedRefs, printer: agentPrinter(ctx) }),
          refused: found.protectedRefs.map((p) => ({ path: p, reason: "tandem-refs", holder: null })),
        }
      : null,
});
