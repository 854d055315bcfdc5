/** The reads behind the web UI's event list: pages of the log and the names of its sessions. */
import type { Db } from "./db.js";
import { stmt } from "./db.js";
import type { StoredEvent } from "./stored-event.js";
import { type EventRow, toEvent } from "./queries.js";

const COLUMNS = "SELECT seq, ts, session_id, kind, data FROM events";

/** Every session's name by id, ended ones included: old events still read by name. */
export function sessionNames(db: Db): Map<string, string> {
  const rows = stmt(db, "SELECT id, name FROM sessions").all() as { id: string; name: string }[];
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Events after `seq`, oldest first, at most `max` (the newest of them when there are more). */
export function eventsSince(db: Db, seq: number, max: number): StoredEvent[] {
  const rows = stmt(db, `${COLUMNS} WHERE seq > ? ORDER BY seq DESC LIMIT ${Math.floor(max)}`).all(
    seq,
  ) as EventRow[];
  return rows.reverse().map(toEvent);
}

/** A filter as WHERE terms over `events` with their arguments (core/ui/event-filter.ts builds it). */
export interface EventWhere {
  where: string[];
  args: string[];
}

/** One page at or below `anchor`, newest first, and how many events match in all. */
export function eventPage(
  db: Db,
  filter: EventWhere,
  page: { anchor: number; limit: number; offset: number },
): { total: number; rows: StoredEvent[] } {
  const cond = ["seq <= ?", ...filter.where].join(" AND ");
  const total = (
    stmt(db, `SELECT count(*) AS n FROM events WHERE ${cond}`).get(page.anchor, ...filter.args) as {
      n: number;
    }
  ).n;
  const rows = stmt(db, `${COLUMNS} WHERE ${cond} ORDER BY seq DESC LIMIT ? OFFSET ?`).all(
    page.anchor,
    ...filter.args,
    page.limit,
    page.offset,
  ) as EventRow[];
  return { total, rows: rows.map(toEvent) };
}
