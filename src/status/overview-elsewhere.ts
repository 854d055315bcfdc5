import { elsewhereLines } from "../core/remote/elsewhere.js";
import { leaseLine, type RemoteView, showsElsewhere, unknownLine } from "../core/remote/remote-view.js";

/**
 * The overview's "Elsewhere" section: other checkouts' live sessions and the live leases from
 * the last sync, and, when that sync failed or is old, since when presence is unknown and the fix.
 */
export function elsewhereSection(v: RemoteView | null, now: number): string[] {
  if (!showsElsewhere(v)) return [];
  const through = v.remote ? ` through ${v.remote}` : "";
  const lines = ["", `Elsewhere (other checkouts${through}, as of the last sync):`];
  const sessions = elsewhereLines(v.sessions, [], "", now);
  for (const l of sessions) lines.push(`  ${l}`);
  for (const l of v.leases) lines.push(`  - ${leaseLine(l)}`);
  if (sessions.length === 0 && v.leases.length === 0 && v.state !== "never")
    lines.push(`  No live sessions or leases (${v.checkouts} other checkout(s) publish presence).`);
  // A failed round is a problem and is listed under Problems; a round not yet run, or late, is a note.
  if (v.unknown && !elsewhereProblem(v, now))
    lines.push(`  (${unknownLine(v.unknown, now)}; ${v.unknown.fix})`);
  return lines;
}

/** The Problems entry for a sync that failed, so no ✗ line stands above "No problems.". */
export function elsewhereProblem(v: RemoteView | null, now: number): { problem: string; fix: string } | null {
  if (!showsElsewhere(v) || v.state !== "failed" || !v.unknown) return null;
  return { problem: unknownLine(v.unknown, now), fix: v.unknown.fix };
}
