import { type Printer, spanned } from "../printed.js";
import { formatAge } from "../sessions/liveness.js";
import { type ElsewhereSession, elsewhereSessions, liveLeases } from "./elsewhere.js";
import type { Lease } from "./leases.js";
import type { PresenceDoc } from "./presence.js";

/**
 * What `tandem status`, `watch` and `doctor` show of other checkouts (docs/decisions/0014): their
 * live sessions and leases from the last sync, and whether that information can be trusted.
 */

/** The last round's outcome, as the store keeps it (`last_error` is git's message, then the fix). */
export interface SyncOutcome {
  remote: string | null;
  lastAttempt: number;
  lastSuccess: number | null;
  lastError: string | null;
}

export interface RemoteViewInput {
  enabled: boolean;
  /** Whether the repository names a remote at all. */
  hasRemote: boolean;
  docs: readonly PresenceDoc[];
  leases: readonly Lease[];
  sync: SyncOutcome | null;
  /** This checkout's id, or null before it ever had one (then nothing stored is its own). */
  self: string | null;
  now: number;
  intervalMs: number;
  fresh: { sessionMs: number; documentMs: number };
  /** How the reader starts Tandem: the fix spells `sync` with it (decision 0051). */
  printer: Printer;
}

/** off: remote.enabled false; never: a remote but no round yet; stale: no round for a while. */
export type RemoteState = "off" | "no-remote" | "never" | "ok" | "failed" | "stale";

export interface RemoteUnknown {
  /** The last successful round; null when none ever succeeded. */
  since: number | null;
  error: string;
  fix: string;
}

export interface RemoteView {
  state: RemoteState;
  remote: string | null;
  lastSuccess: number | null;
  /** Other checkouts whose presence the last round stored. */
  checkouts: number;
  sessions: ElsewhereSession[];
  leases: (Lease & { mine: boolean })[];
  unknown: RemoteUnknown | null;
}

/** Rounds run every interval while agents work: this many intervals without one is "stale". */
export const STALE_INTERVALS = 4;

const syncNow = (p: Printer) =>
  `run ${spanned(p, "sync")} (hooks start rounds only while agents work in this checkout).`;

/**
 * Splits the stored error into git's words and the fix (the fix is always its last line); a
 * round stored without one gets `sync` as `p` spells it.
 */
export function splitSyncError(stored: string, p: Printer): { error: string; fix: string } {
  const at = stored.lastIndexOf("\n");
  if (at < 0) return { error: stored.trim(), fix: syncNow(p) };
  return { error: stored.slice(0, at).trim(), fix: stored.slice(at + 1).trim() || syncNow(p) };
}

function stateOf(i: RemoteViewInput): RemoteState {
  if (!i.enabled) return "off";
  if (!i.hasRemote) return "no-remote";
  if (!i.sync) return "never";
  if (i.sync.lastError !== null) return "failed";
  const last = Math.min(i.sync.lastSuccess ?? i.sync.lastAttempt, i.now);
  return i.now - last > STALE_INTERVALS * i.intervalMs ? "stale" : "ok";
}

function unknownOf(state: RemoteState, i: RemoteViewInput): RemoteUnknown | null {
  const since = i.sync?.lastSuccess ?? null;
  if (state === "never") return { since: null, error: "no sync round has run yet", fix: syncNow(i.printer) };
  if (state === "failed") return { since, ...splitSyncError(i.sync?.lastError ?? "", i.printer) };
  if (state === "stale")
    return {
      since,
      error: `no sync round for ${formatAge(i.now - (since ?? i.now))}`,
      fix: syncNow(i.printer),
    };
  return null;
}

/** Pure: the stored documents, leases and round outcome into what the views show. */
export function remoteView(i: RemoteViewInput): RemoteView {
  const state = stateOf(i);
  const shown = state !== "off" && state !== "no-remote";
  const self = i.self ?? "";
  return {
    state,
    remote: i.sync?.remote ?? null,
    lastSuccess: i.sync?.lastSuccess ?? null,
    checkouts: shown ? i.docs.filter((d) => d.checkout.id !== self).length : 0,
    sessions: shown ? elsewhereSessions(i.docs, self, i.now, i.fresh) : [],
    leases: shown
      ? liveLeases(i.leases, i.now)
          .map((l) => ({ ...l, mine: l.checkout === self }))
          .sort((a, b) => a.path.localeCompare(b.path))
      : [],
    unknown: unknownOf(state, i),
  };
}

/** Whether views show other checkouts at all: sharing is on and there is a remote. */
export const showsElsewhere = (v: RemoteView | null | undefined): v is RemoteView =>
  !!v && v.state !== "off" && v.state !== "no-remote";

const stamp = (ts: number) => new Date(ts).toISOString().replace(/\.\d+Z$/, "Z");

/** One line of git's message: views have room for one; `--json` keeps it whole. */
function oneLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** "remote presence unknown since <time> (<age> ago): <error>" for status, watch and doctor. */
export function unknownLine(u: RemoteUnknown, now: number): string {
  const since =
    u.since === null
      ? "remote presence unknown"
      : `remote presence unknown since ${stamp(u.since)} (${formatAge(now - u.since)} ago)`;
  return `${since}: ${oneLine(u.error)}`;
}

/** A lease as a line: "src/x.ts reserved by host:/p for "task" until <time>". */
export function leaseLine(l: Lease & { mine: boolean }): string {
  const who = l.mine ? "this checkout" : l.checkoutName;
  return `${l.path} reserved by ${who}${l.session ? ` (${l.session})` : ""}${l.task ? ` for "${l.task}"` : ""} until ${stamp(l.expires)}`;
}
