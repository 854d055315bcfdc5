import { table } from "./columns.js";

/**
 * What `tandem init` wired (docs/decisions/0024): per coordination root the choice it wired with,
 * and per wiring file its stat stamp and the blob of its content as Tandem last accepted it. Not
 * projections: hooks and the server refresh the stamps without an event.
 */
export const WIRING_DDL = [
  `CREATE TABLE wiring_roots (
     root TEXT PRIMARY KEY,
     launcher TEXT NOT NULL,
     clients TEXT NOT NULL,
     git_hooks INTEGER NOT NULL
   )`,
  `CREATE TABLE wiring_files (
     path TEXT PRIMARY KEY,
     root TEXT NOT NULL,
     stamp TEXT NOT NULL,
     blob TEXT
   )`,
];

export interface WiringRootRow {
  root: string;
  launcher: string;
  /** The wired clients' names, as JSON. */
  clients: string;
  git_hooks: number;
}

export const WIRING_ROOTS = table<WiringRootRow>("wiring_roots", {
  root: "TEXT",
  launcher: "TEXT",
  clients: "TEXT",
  git_hooks: "INTEGER",
});

/** One wiring file as Tandem last wrote or accepted it. */
export interface WiringFileRow {
  path: string;
  root: string;
  /** Stat stamp (`wiringStamp` in src/wiring/wiring-record.ts); "-" when the file did not exist. */
  stamp: string;
  /** Blob of its content then; null when it did not exist. */
  blob: string | null;
}

export const WIRING_FILES = table<WiringFileRow>("wiring_files", {
  path: "TEXT",
  root: "TEXT",
  stamp: "TEXT",
  blob: "TEXT NULL",
});
