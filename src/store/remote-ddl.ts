/**
 * What the last sync round read from the Git remote (docs/decisions/0014): other checkouts'
 * presence documents, the shared lease document, and how the round went. Not projections: nothing
 * here is derived from events; each round replaces all of it. Documents are kept as JSON text.
 */
export const REMOTE_DDL = [
  `CREATE TABLE remote_presence (
     checkout TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     published INTEGER NOT NULL,
     fetched_at INTEGER NOT NULL,
     doc TEXT NOT NULL
   )`,
  `CREATE TABLE remote_leases (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     doc TEXT NOT NULL,
     commit_id TEXT NOT NULL,
     fetched_at INTEGER NOT NULL
   )`,
  `CREATE TABLE remote_sync (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     remote TEXT,
     last_attempt INTEGER NOT NULL,
     last_success INTEGER,
     last_error TEXT
   )`,
];
