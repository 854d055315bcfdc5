import { type EventFilter, filterSql } from "../core/ui/event-filter.js";
import type { EventsPage, UiEvent } from "../core/ui/protocol.js";
import type { Db } from "../store/db.js";
import { stmt } from "../store/db.js";
import type { EventRow } from "../store/queries.js";
import { eventDetail, eventTone } from "../watch/events.js";

/** At most this many events per page or per delta: a burst larger than that is paged in by the list. */
export const PAGE_MAX = 500;

/**
 * Session names by id, for the `who` column. Read whole when an unknown id shows up (a new
 * session); ended sessions keep their names, so old events still read by name.
 */
export class Names {
  private map = new Map<string, string>();

  of(db: Db, ids: Iterable<string | null>): ReadonlyMap<string, string> {
    for (const id of ids) {
      if (id !== null && !this.map.has(id)) {
        const rows = stmt(db, "SELECT id, name FROM sessions").all() as { id: string; name: string }[];
        this.map = new Map(rows.map((r) => [r.id, r.name]));
        break;
      }
    }
    return this.map;
  }
}

function shape(rows: readonly EventRow[], names: ReadonlyMap<string, string>, root: string): UiEvent[] {
  return rows.map((r) => {
    const ev = { seq: r.seq, ts: r.ts, session: r.session_id, kind: r.kind, data: JSON.parse(r.data) };
    return {
      seq: r.seq,
      ts: r.ts,
      session: r.session_id,
      who: r.session_id ? (names.get(r.session_id) ?? r.session_id) : "-",
      kind: r.kind,
      detail: eventDetail(ev, names, root),
      tone: eventTone(ev),
    };
  });
}

const COLUMNS = "SELECT seq, ts, session_id, kind, data FROM events";

/** Events after `seq`, oldest first, at most PAGE_MAX (the newest of them when there are more). */
export function eventsAfter(db: Db, seq: number, names: Names, root: string): UiEvent[] {
  const rows = stmt(db, `${COLUMNS} WHERE seq > ? ORDER BY seq DESC LIMIT ${PAGE_MAX}`).all(
    seq,
  ) as EventRow[];
  rows.reverse();
  return shape(
    rows,
    names.of(
      db,
      rows.map((r) => r.session_id),
    ),
    root,
  );
}

export interface PageRequest {
  filter: EventFilter;
  /** Only events at or below this seq: the list's rows keep their places while new ones arrive. */
  anchor: number;
  offset: number;
  limit: number;
}

/** One page of the filtered history, newest first, with how many events match in all. */
export function eventsPage(db: Db, req: PageRequest, names: Names, root: string): EventsPage {
  const { where, args } = filterSql(req.filter);
  const cond = ["seq <= ?", ...where].join(" AND ");
  const total = (
    stmt(db, `SELECT count(*) AS n FROM events WHERE ${cond}`).get(req.anchor, ...args) as {
      n: number;
    }
  ).n;
  const limit = Math.max(1, Math.min(PAGE_MAX, Math.floor(req.limit)));
  const offset = Math.max(0, Math.floor(req.offset));
  const rows = stmt(db, `${COLUMNS} WHERE ${cond} ORDER BY seq DESC LIMIT ? OFFSET ?`).all(
    req.anchor,
    ...args,
    limit,
    offset,
  ) as EventRow[];
  return {
    total,
    rows: shape(
      rows,
      names.of(
        db,
        rows.map((r) => r.session_id),
      ),
      root,
    ),
  };
}
