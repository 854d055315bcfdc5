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

/**
 * Hunks carry when they were written (decision 0074): each hunk recorded before gets a first write
 * of unknown time (0, before any window) and a last one at its row's last update, neither in a
 * known turn, so an undo of one turn or `--since` never takes it back as wholly its own.
 */
export const LINE_STAMPS_DDL = [
  `UPDATE line_authors SET hunks = (
     SELECT json_group_array(json_set(j.value,
       '$.first', json_object('at', 0, 'turn', NULL),
       '$.last', json_object('at', line_authors.updated_at, 'turn', NULL)) ORDER BY j.key)
     FROM json_each(line_authors.hunks) AS j)`,
];

/** One file's row: `hunks` is the JSON of its owned hunks with their writes (core/lines/layout.ts). */
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
