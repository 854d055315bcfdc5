/** A git command that would change files peers hold (decision 0009), judged before it runs. */
import { refusal } from "../../core/rules/catalog.js";
import { guardGitCalls } from "../git-guard.js";
import { defineGate } from "./gate.js";

export default defineGate({
  id: "git-impact",
  order: 60,
  rules: ["git-impact"],
  reads: ["found"],
  run(ctx, { found }) {
    const { findings } = guardGitCalls(ctx, found.gitCalls);
    if (findings.length === 0) return null;
    return {
      verdict: refusal("git-impact", { findings, now: ctx.now }),
      refused: findings.map((f) => ({ path: f.path, reason: `git-${f.effect}`, holder: f.holder.id })),
    };
  },
});
