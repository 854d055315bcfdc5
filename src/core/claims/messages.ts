import { formatAge } from "../sessions/liveness.js";
import type { ClaimDecision, Conflict } from "./decide.js";
import type { LineOverlap, LineRefusal } from "./line-claim.js";

export function conflictLine(c: Conflict, now: number): string {
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

const span = (o: LineOverlap): string =>
  o.first === o.last ? `line ${o.first}` : `lines ${o.first}–${o.last}`;

/**
 * The refusal's text: as a whole-file refusal, who holds the file (when a peer does), then which
 * of its lines the edit would touch and whose they are, and how to get the edit through.
 */
export function lineDenialMessage(
  refusals: readonly LineRefusal[],
  held: readonly Conflict[],
  now: number,
): string {
  const out = ["Tandem refused this edit; nothing was changed and nothing was claimed."];
  if (held.length > 0) {
    out.push("These files are being edited by another live agent session:");
    out.push(...held.map((c) => conflictLine(c, now)));
  }
  for (const r of refusals) {
    out.push(
      `${r.raw} is shared by lines: this edit changes lines within ${r.margin} of another live agent's uncommitted lines:`,
    );
    for (const o of r.overlaps)
      out.push(
        `- ${span(o)}: uncommitted work of ${o.name}${o.drops ? " (this edit would remove them)" : ""}`,
      );
  }
  const names = [...new Set(refusals.flatMap((r) => r.overlaps.map((o) => o.name)))];
  const margin = Math.max(...refusals.map((r) => r.margin));
  out.push(
    `What to do: read the file again and keep your change at least ${margin} unchanged lines away from those lines (an Edit of your own lines, not a Write of a whole older copy), or wait until ${names.join(", ")} commits them (claims are released on commit), or coordinate with the user. Do not work around this by editing the file another way.`,
  );
  return out.join("\n");
}
