/** A call that names another worktree's files where live peers work (decision 0023). */
import { refusal } from "../../core/rules/catalog.js";
import { worktreeRefused } from "../protected.js";
import { defineGate } from "./gate.js";

export default defineGate({
  id: "other-worktree",
  order: 50,
  rules: ["other-worktree"],
  reads: ["found", "targets"],
  run(ctx, { found, targets }) {
    const findings = worktreeRefused(ctx, found, targets);
    if (findings.length === 0) return null;
    return {
      verdict: refusal("other-worktree", { findings, now: ctx.now }),
      refused: findings.map((f) => ({ path: f.raw, reason: "other-worktree", holder: f.holder.id })),
    };
  },
});
