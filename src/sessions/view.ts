import { isLive } from "../core/liveness.js";
import type { Db } from "../store/db.js";
import { allSessions, type SessionRow } from "../store/queries.js";
import { livenessFacts } from "./liveness.js";

export interface SessionView {
  id: string;
  name: string;
  client: string;
  nativeId: string;
  kind: "session" | "subagent";
  parentId: string | null;
  task: string | null;
  activity: string;
  live: boolean;
  ended: boolean;
  lastSeen: number;
  claims: number;
}

export function toView(row: SessionRow, claims: number, now: number, freshnessSeconds: number): SessionView {
  const ended = row.ended_seq !== null;
  return {
    id: row.id,
    name: row.name,
    client: row.client,
    nativeId: row.native_id,
    kind: row.kind,
    parentId: row.parent_id,
    task: row.task,
    activity: row.activity,
    live: isLive(livenessFacts(row), now, freshnessSeconds),
    ended,
    lastSeen: row.last_seen,
    claims,
  };
}

/** Every session with its liveness judged now and its active claim count. */
export function sessionViews(db: Db, freshnessSeconds: number, now = Date.now()): SessionView[] {
  const counts = new Map<string, number>(
    (
      db.prepare("SELECT session_id, count(*) AS n FROM claims GROUP BY session_id").all() as {
        session_id: string;
        n: number;
      }[]
    ).map((r) => [r.session_id, r.n]),
  );
  return allSessions(db).map((row) => toView(row, counts.get(row.id) ?? 0, now, freshnessSeconds));
}
