import type { Db } from "../db.js";
import { stmt } from "../db.js";
import type { SessionRow } from "../schema/sessions.js";

export type { SessionRow };

/** The `sessions` table (its row and DDL: store/schema/sessions.ts), and the reads that list or find sessions. */

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

/** `--session X`: the client's native id, the Tandem name, or the internal id. */
export function findSessions(db: Db, ref: string): SessionRow[] {
  return stmt(
    db,
    "SELECT * FROM sessions WHERE id = ? OR name = ? OR native_id = ? ORDER BY started_seq",
  ).all(ref, ref, ref) as SessionRow[];
}
