/** The reads behind the web UI's event list: pages of the log and the names of its sessions. */
import type { EventFilter } from "../../core/ui/event-filter.js";
import type { Db } from "../db.js";
import { stmt } from "../db.js";
import { type EventRow, toEvent } from "./list.js";
import type { StoredEvent } from "./stored.js";

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

/** A filter as WHERE terms over `events` with their arguments. */
export interface EventWhere {
  where: string[];
  args: string[];
}

/** The SQL condition and arguments for the UI's filter, so server pages and live rows (core/ui/event-filter.ts) agree. */
export function filterSql(f: EventFilter): EventWhere {
  const where: string[] = [];
  const args: string[] = [];
  if (f.session !== null) {
    where.push("session_id = ?");
    args.push(f.session);
  }
  if (f.kind !== null) {
    const family = f.kind.endsWith(".*");
    where.push(family ? "kind >= ? AND kind < ?" : "kind = ?");
    if (family) {
      const prefix = f.kind.slice(0, -1);
      args.push(prefix, `${prefix}\uffff`);
    } else args.push(f.kind);
  }
  return { where, args };
}

/** One page at or below `anchor`, newest first, and how many events match in all. */
export function eventPage(
  db: Db,
  eventFilter: EventFilter,
  page: { anchor: number; limit: number; offset: number },
): { total: number; rows: StoredEvent[] } {
  const filter = filterSql(eventFilter);
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
