import { table } from "./columns.js";

/**
 * The resident server (docs/server.md): which process serves this store, and which thin-client
 * requests have been taken and by whom, so a request the server may have handled before it died
 * is never applied twice by the Node path. Not projections: nothing here is derived from events.
 */
export const RESIDENT_DDL = [
  `CREATE TABLE requests (
     id TEXT PRIMARY KEY,
     owner TEXT NOT NULL,
     ts INTEGER NOT NULL,
     answer TEXT
   )`,
  "CREATE INDEX requests_by_ts ON requests (ts)",
  `CREATE TABLE server (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     pid INTEGER NOT NULL,
     pid_start TEXT,
     build TEXT NOT NULL,
     socket TEXT NOT NULL,
     started INTEGER NOT NULL
   )`,
];

export interface RequestRow {
  id: string;
  owner: string;
  ts: number;
  /** The rendered answer as JSON, once the request was answered. */
  answer: string | null;
}

export const REQUESTS = table<RequestRow>("requests", {
  id: "TEXT",
  owner: "TEXT",
  ts: "INTEGER",
  answer: "TEXT NULL",
});

/** The process that serves this store (docs/server.md §1); at most one row, `id` 1. */
export interface ServerRecord {
  id: number;
  pid: number;
  pid_start: string | null;
  build: string;
  socket: string;
  started: number;
}

export const SERVER = table<ServerRecord>("server", {
  id: "INTEGER",
  pid: "INTEGER",
  pid_start: "TEXT NULL",
  build: "TEXT",
  socket: "TEXT",
  started: "INTEGER",
});
