import type { Db } from "./db.js";
import { stmt } from "./db.js";
import type { StoredEvent } from "./events/stored.js";

export interface SessionRow {
  id: string;
  client: string;
  native_id: string;
  name: string;
  kind: "session" | "subagent";
  parent_id: string | null;
  agent_pid: number | null;
  agent_pid_start: string | null;
  ui_pid: number | null;
  ui_pid_start: string | null;
  cwd: string | null;
  task: string | null;
  activity: "idle" | "working" | "needs_input";
  started_seq: number;
  last_seen: number;
  last_seq: number;
  ended_seq: number | null;
}

export interface ClaimRow {
  worktree: string;
  path: string;
  session_id: string;
  disposition: string;
  root: string;
  acquired_seq: number;
}

export interface EventFilter {
  session?: string | undefined;
  kind?: string | undefined;
  sinceSeq?: number | undefined;
  limit?: number | undefined;
}

/** An `events` row as stored. */
export interface EventRow {
  seq: number;
  ts: number;
  session_id: string | null;
  kind: string;
  data: string;
}

export function toEvent(row: EventRow): StoredEvent {
  return { seq: row.seq, ts: row.ts, session: row.session_id, kind: row.kind, data: JSON.parse(row.data) };
}

export function listEvents(db: Db, filter: EventFilter = {}): StoredEvent[] {
  const where: string[] = ["seq > ?"];
  const args: unknown[] = [filter.sinceSeq ?? 0];
  if (filter.session) {
    where.push("session_id = ?");
    args.push(filter.session);
  }
  if (filter.kind) {
    where.push(filter.kind.endsWith(".*") ? "kind LIKE ?" : "kind = ?");
    args.push(filter.kind.endsWith(".*") ? `${filter.kind.slice(0, -1)}%` : filter.kind);
  }
  const limit = filter.limit ? ` LIMIT ${Math.floor(filter.limit)}` : "";
  const sql = `SELECT seq, ts, session_id, kind, data FROM events WHERE ${where.join(" AND ")} ORDER BY seq${limit}`;
  return (stmt(db, sql).all(...args) as EventRow[]).map(toEvent);
}

/** Every session ever recorded: grows with history, for `sessions --all` and audits only. */
export function allSessions(db: Db): SessionRow[] {
  return stmt(db, "SELECT * FROM sessions ORDER BY started_seq").all() as SessionRow[];
}

/** The clients that ever had a session here (doctor weighs a client's trust only for those in use). */
export function clientsWithSessions(db: Db): string[] {
  return (stmt(db, "SELECT DISTINCT client FROM sessions").all() as { client: string }[]).map(
    (r) => r.client,
  );
}

/** Sessions that have not ended, through the partial index: ended ones are never read. */
export function openSessions(db: Db): SessionRow[] {
  return stmt(
    db,
    "SELECT * FROM sessions WHERE ended_seq IS NULL ORDER BY started_seq",
  ).all() as SessionRow[];
}

/** Open sessions and those that ended (last seen) at or after `endedSince`. */
export function currentSessions(db: Db, endedSince: number): SessionRow[] {
  return stmt(
    db,
    `SELECT * FROM sessions WHERE ended_seq IS NULL
     UNION ALL SELECT * FROM sessions WHERE last_seen >= ? AND ended_seq IS NOT NULL
     ORDER BY started_seq`,
  ).all(endedSince) as SessionRow[];
}

export function sessionById(db: Db, id: string): SessionRow | undefined {
  return stmt(db, "SELECT * FROM sessions WHERE id = ?").get(id) as SessionRow | undefined;
}

export function sessionByNative(db: Db, client: string, nativeId: string): SessionRow | undefined {
  return stmt(db, "SELECT * FROM sessions WHERE client = ? AND native_id = ?").get(client, nativeId) as
    | SessionRow
    | undefined;
}

/** `--session X`: the client's native id, the Tandem name, or the internal id. */
/** Open sessions run by this agent process (a recorded start must match: pids are reused). */
export function liveSessionsOfAgent(
  db: Db,
  pid: number,
  start: string | null,
): { id: string; name: string }[] {
  return stmt(
    db,
    "SELECT id, name FROM sessions WHERE agent_pid = ? AND ended_seq IS NULL AND (agent_pid_start IS NULL OR agent_pid_start = ?)",
  ).all(pid, start) as { id: string; name: string }[];
}

/** Each open or recently ended (last seen at or after `endedSince`) session's latest event. */
export function lastSeqs(db: Db, endedSince: number): Map<string, number> {
  const rows = stmt(db, "SELECT id, last_seq FROM sessions WHERE ended_seq IS NULL OR last_seen >= ?").all(
    endedSince,
  ) as { id: string; last_seq: number }[];
  return new Map(rows.map((r) => [r.id, r.last_seq]));
}

export function findSessions(db: Db, ref: string): SessionRow[] {
  return stmt(
    db,
    "SELECT * FROM sessions WHERE id = ? OR name = ? OR native_id = ? ORDER BY started_seq",
  ).all(ref, ref, ref) as SessionRow[];
}

export function claimsOf(db: Db, sessionId: string): ClaimRow[] {
  return stmt(db, "SELECT * FROM claims WHERE session_id = ? ORDER BY worktree, path").all(
    sessionId,
  ) as ClaimRow[];
}

/** Where each of the session's claims is, and nothing else: a status of 1,000 claims reads only these. */
export function claimedPaths(db: Db, sessionId: string): Pick<ClaimRow, "worktree" | "path">[] {
  return stmt(db, "SELECT worktree, path FROM claims WHERE session_id = ? ORDER BY worktree, path").all(
    sessionId,
  ) as Pick<ClaimRow, "worktree" | "path">[];
}

export function allClaims(db: Db): ClaimRow[] {
  return stmt(db, "SELECT * FROM claims ORDER BY worktree, path").all() as ClaimRow[];
}

export function maxSeq(db: Db): number {
  return (stmt(db, "SELECT coalesce(max(seq), 0) AS m FROM events").get() as { m: number }).m;
}

/** Every worktree where some session claimed or touched a path (the places peers' work can be). */
export function ownedWorktrees(db: Db): Set<string> {
  const rows = stmt(
    db,
    "SELECT DISTINCT worktree FROM claims UNION SELECT DISTINCT worktree FROM touched WHERE unattributed = 0",
  ).all() as { worktree: string }[];
  return new Set(rows.map((r) => r.worktree));
}
