import { table } from "./columns.js";

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

export interface RemotePresenceRow {
  checkout: string;
  name: string;
  published: number;
  fetched_at: number;
  doc: string;
}

export const REMOTE_PRESENCE = table<RemotePresenceRow>("remote_presence", {
  checkout: "TEXT",
  name: "TEXT",
  published: "INTEGER",
  fetched_at: "INTEGER",
  doc: "TEXT",
});

/** The one lease document (`id` 1); store/remote/rows.ts reads it without the id. */
export interface RemoteLeasesRecord {
  id: number;
  doc: string;
  commit_id: string;
  fetched_at: number;
}

export const REMOTE_LEASES = table<RemoteLeasesRecord>("remote_leases", {
  id: "INTEGER",
  doc: "TEXT",
  commit_id: "TEXT",
  fetched_at: "INTEGER",
});

/** How the last round went (`id` 1); store/remote/rows.ts reads it without the id. */
export interface RemoteSyncRecord {
  id: number;
  remote: string | null;
  last_attempt: number;
  last_success: number | null;
  last_error: string | null;
}

export const REMOTE_SYNC = table<RemoteSyncRecord>("remote_sync", {
  id: "INTEGER",
  remote: "TEXT NULL",
  last_attempt: "INTEGER",
  last_success: "INTEGER NULL",
  last_error: "TEXT NULL",
});
