import { type RemoteView, showsElsewhere, unknownLine } from "../core/remote/remote-view.js";
import { formatAge } from "../core/sessions/liveness.js";
import { clock } from "./columns.js";
import type { BoardRemoteRow } from "./model.js";

/** Pure: the remote view into the board's rows, sessions first, then leases. */
export function remoteRows(v: RemoteView | null | undefined, now: number): BoardRemoteRow[] {
  if (!showsElsewhere(v)) return [];
  const sessions = v.sessions.map(
    (s): BoardRemoteRow => ({
      kind: "session",
      machine: s.machine,
      who: s.name,
      branch: s.branch ?? "-",
      paths: s.paths.length ? s.paths.join(" ") : "-",
      task: s.task ?? "-",
      when: formatAge(now - s.asOf),
    }),
  );
  const leases = v.leases.map(
    (l): BoardRemoteRow => ({
      kind: "lease",
      machine: l.mine ? "this checkout" : l.checkoutName,
      who: l.session ?? "(lease)",
      branch: "-",
      paths: l.path,
      task: l.task ?? "-",
      when: `until ${clock(l.expires)}`,
    }),
  );
  return [...sessions, ...leases];
}

/** The section's summary, and the unknown-since line with its fix when presence is unknown. */
export function remoteSummary(v: RemoteView, now: number): { summary: string; unknown: string[] } {
  const n = (k: number, what: string) => `${k} ${what}${k === 1 ? "" : "s"}`;
  const parts = [n(v.sessions.length, "remote session"), n(v.leases.length, "lease")];
  if (v.unknown) parts.push(v.unknown.since === null ? "unknown" : `unknown since ${clock(v.unknown.since)}`);
  const unknown = v.unknown ? [unknownLine(v.unknown, now), `fix: ${v.unknown.fix}`] : [];
  return { summary: parts.join(", "), unknown };
}
