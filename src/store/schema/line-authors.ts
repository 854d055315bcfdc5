import { table } from "./columns.js";

/**
 * Who wrote each uncommitted hunk (decision 0061): per file, the text the hunks describe, the
 * digest of the base they are from, and the hunks with their authors (JSON). Scratch state like
 * the shell snapshots: re-derived from the file on its next write, never from the log.
 */
export const LINE_AUTHORS_DDL = [
  `CREATE TABLE line_authors (
     worktree TEXT NOT NULL,
     path TEXT NOT NULL,
     base TEXT NOT NULL,
     content TEXT NOT NULL,
     hunks TEXT NOT NULL,
     updated_at INTEGER NOT NULL,
     PRIMARY KEY (worktree, path)
   )`,
];

/** One file's row: `hunks` is the JSON of its owned hunks (core/lines/layout.ts). */
export interface LineAuthorsRow {
  worktree: string;
  path: string;
  base: string;
  content: string;
  hunks: string;
  updated_at: number;
}

export const LINE_AUTHORS = table<LineAuthorsRow>("line_authors", {
  worktree: "TEXT",
  path: "TEXT",
  base: "TEXT",
  content: "TEXT",
  hunks: "TEXT",
  updated_at: "INTEGER",
});
