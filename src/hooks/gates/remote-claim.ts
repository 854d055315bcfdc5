/** Files agents in other checkouts hold (decision 0014): a lease, or any hold when remoteClaims blocks. */
import { remoteRefusing } from "../../core/remote/verdict.js";
import { refusal } from "../../core/rules/catalog.js";
import { agentPrinter } from "../context.js";
import { defineGate } from "./gate.js";

export default defineGate({
  id: "remote-claim",
  order: 70,
  rules: ["remote-claim"],
  reads: ["found", "remote"],
  run(ctx, { found, remote }) {
    if (remote.verdict.allow) return null;
    const holders = remoteRefusing(remote.holders, ctx.config.remoteClaims);
    return {
      verdict: refusal("remote-claim", { holders, now: ctx.now, printer: agentPrinter(ctx) }),
      refused: [{ path: found.raws.join(" "), reason: "remote-held", holder: null }],
    };
  },
});
