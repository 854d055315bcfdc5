import type { EventFilter } from "../core/ui/event-filter.js";
import type { EventsPage, UiEvent } from "../core/ui/protocol.js";
import type { Db } from "../store/db.js";
import { eventPage, eventsSince, sessionNames } from "../store/events/pages.js";
import type { StoredEvent } from "../store/ledger/projections.js";
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
        this.map = sessionNames(db);
        break;
      }
    }
    return this.map;
  }
}

function shape(rows: readonly StoredEvent[], names: ReadonlyMap<string, string>, root: string): UiEvent[] {
  return rows.map((ev) => {
    return {
      seq: ev.seq,
      ts: ev.ts,
      session: ev.session,
      who: ev.session ? (names.get(ev.session) ?? ev.session) : "-",
      kind: ev.kind,
      detail: eventDetail(ev, names, root),
      tone: eventTone(ev),
    };
  });
}

/** Events after `seq`, oldest first, at most PAGE_MAX (the newest of them when there are more). */
export function eventsAfter(db: Db, seq: number, names: Names, root: string): UiEvent[] {
  const rows = eventsSince(db, seq, PAGE_MAX);
  return shape(
    rows,
    names.of(
      db,
      rows.map((r) => r.session),
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
  const limit = Math.max(1, Math.min(PAGE_MAX, Math.floor(req.limit)));
  const offset = Math.max(0, Math.floor(req.offset));
  const { total, rows } = eventPage(db, req.filter, { anchor: req.anchor, limit, offset });
  return {
    total,
    rows: shape(
      rows,
      names.of(
        db,
        rows.map((r) => r.session),
      ),
      root,
    ),
  };
}
