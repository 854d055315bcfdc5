import { formatAge } from "../sessions/liveness.js";
import type { ClaimDecision, Conflict } from "./decide.js";

function conflictLine(c: Conflict, now: number): string {
  const h = c.claim.holder;
  const task = h.task ? `task "${h.task}"` : "no task declared";
  const seen = `${h.client}, ${task}, last seen ${formatAge(now - h.lastSeen)} ago`;
  if (c.target.linkOf !== undefined)
    return `- ${c.target.linkOf}: the same file as ${c.target.path} (a hard link: writing one name writes both), held by ${h.name} (${seen})`;
  const held = c.claim.path === c.target.path ? "" : ` (it holds ${c.claim.path})`;
  // Repository-relative, as the holder's claim is named, whatever form the tool gave (Edit: absolute).
  return `- ${c.target.path}: held by ${h.name} (${seen})${held}`;
}

/** The denial text the agent reads: every refused target, who holds it, and what to do. */
export function denialMessage(decision: Extract<ClaimDecision, { allow: false }>, now: number): string {
  const lines = ["Tandem refused this edit; nothing was changed and nothing was claimed."];
  if (decision.conflicts.length > 0) {
    lines.push("These files are being edited by another live agent session:");
    lines.push(...decision.conflicts.map((c) => conflictLine(c, now)));
  }
  if (decision.refused.length > 0) {
    lines.push("These targets cannot be coordinated:");
    lines.push(...decision.refused.map((r) => `- ${r.raw}: ${r.reason}`));
  }
  const holders = [...new Set(decision.conflicts.map((c) => c.claim.holder.name))];
  if (holders.length > 0) {
    lines.push(
      `What to do: work on other files, or wait until ${holders.join(", ")} commits (claims are released on commit), or coordinate with the user. Do not work around this by editing the file another way.`,
    );
  }
  return lines.join("\n");
}
