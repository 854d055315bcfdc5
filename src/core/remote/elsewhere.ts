import { isExpired, type Lease } from "./leases.js";
import { type Freshness, liveRemoteSessions, type PresenceDoc } from "./presence.js";

/** A live session of another checkout, as the views show it. */
export interface ElsewhereSession {
  machine: string;
  name: string;
  client: string;
  branch: string | null;
  task: string | null;
  paths: string[];
  asOf: number;
}

/** Other checkouts' sessions that count as live (the gate's freshness rules), newest first. */
export function elsewhereSessions(
  docs: readonly PresenceDoc[],
  self: string,
  now: number,
  fresh: Freshness,
): ElsewhereSession[] {
  const out = liveRemoteSessions(docs, self, now, fresh).map(({ doc, session: s, asOf, branch }) => ({
    machine: doc.checkout.name,
    name: s.name,
    client: s.client,
    branch,
    task: s.task,
    paths: [...new Set([...s.claims, ...s.dirty])].sort(),
    asOf,
  }));
  return out.sort((a, b) => b.asOf - a.asOf || a.name.localeCompare(b.name));
}

export function liveLeases(leases: readonly Lease[], now: number): Lease[] {
  return leases.filter((l) => !isExpired(l, now));
}

const SHOWN = 4;

function ago(ms: number): string {
  const m = Math.round(Math.max(0, ms) / 60_000);
  return m < 1 ? "just now" : m < 90 ? `${m} min ago` : `${Math.round(m / 60)} h ago`;
}

/** Lines for a session's context and the status overview; empty when nobody is elsewhere. */
export function elsewhereLines(
  sessions: readonly ElsewhereSession[],
  leases: readonly Lease[],
  self: string,
  now: number,
): string[] {
  const lines: string[] = [];
  for (const s of sessions) {
    const files =
      s.paths.length === 0
        ? "no files yet"
        : `${s.paths.slice(0, SHOWN).join(", ")}${s.paths.length > SHOWN ? ` and ${s.paths.length - SHOWN} more` : ""}`;
    const task = s.task ? `, task "${s.task}"` : "";
    lines.push(
      `- ${s.name} (${s.client}) in ${s.machine}${s.branch ? ` on ${s.branch}` : ""}${task}: ${files} (as of ${ago(now - s.asOf)})`,
    );
  }
  for (const l of leases.filter((x) => x.checkout !== self)) {
    lines.push(
      `- ${l.path} reserved by ${l.checkoutName}${l.task ? ` for "${l.task}"` : ""} until ${new Date(l.expires).toISOString()}`,
    );
  }
  return lines;
}
