import { table } from "./columns.js";

/** The ledger: every event, in order; the only table that is not derived. */
export const EVENTS_DDL = [
  `CREATE TABLE events (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     ts INTEGER NOT NULL,
     session_id TEXT,
     kind TEXT NOT NULL,
     data TEXT NOT NULL
   )`,
  "CREATE INDEX events_by_session ON events (session_id, seq)",
  "CREATE INDEX events_by_kind ON events (kind, seq)",
];

/** An `events` row as stored. */
export interface EventRow {
  seq: number;
  ts: number;
  session_id: string | null;
  kind: string;
  data: string;
}

export const EVENTS = table<EventRow>("events", {
  seq: "INTEGER",
  ts: "INTEGER",
  session_id: "TEXT NULL",
  kind: "TEXT",
  data: "TEXT",
});
