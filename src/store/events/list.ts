import type { Db } from "../db.js";
import { stmt } from "../db.js";
import type { EventRow } from "../schema/events.js";
import type { StoredEvent } from "./stored.js";

export type { EventRow };

/** The general listing of the event log, by session, kind and position. */

export interface EventFilter {
  session?: string | undefined;
  kind?: string | undefined;
  sinceSeq?: number | undefined;
  limit?: number | undefined;
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

export function maxSeq(db: Db): number {
  return (stmt(db, "SELECT coalesce(max(seq), 0) AS m FROM events").get() as { m: number }).m;
}
