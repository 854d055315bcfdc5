/** The `line_authors` table (decision 0061): per file, its uncommitted hunks and who wrote each. */
import type { OwnedHunk } from "../../core/lines/layout.js";
import type { Db } from "../db.js";
import { stmt } from "../db.js";
import type { LineAuthorsRow } from "../schema/line-authors.js";

export interface LineAuthors {
  worktree: string;
  path: string;
  /** Digest of the base text the hunks are from (the file in HEAD, or empty). */
  base: string;
  /** The file's text the hunks describe. */
  content: string;
  hunks: OwnedHunk[];
  updatedAt: number;
}

type Row = LineAuthorsRow;

const fromRow = (r: Row): LineAuthors => ({
  worktree: r.worktree,
  path: r.path,
  base: r.base,
  content: r.content,
  hunks: JSON.parse(r.hunks) as OwnedHunk[],
  updatedAt: r.updated_at,
});

export function lineAuthors(db: Db, worktree: string, path: string): LineAuthors | null {
  const row = stmt(db, "SELECT * FROM line_authors WHERE worktree = ? AND path = ?").get(worktree, path) as
    | Row
    | undefined;
  return row ? fromRow(row) : null;
}

/** Every file of a worktree with uncommitted hunks, by path. */
export function lineAuthorsUnder(db: Db, worktree: string): LineAuthors[] {
  const rows = stmt(db, "SELECT * FROM line_authors WHERE worktree = ? ORDER BY path").all(worktree) as Row[];
  return rows.map(fromRow);
}

/** Records a file's hunks; a file with none (clean, or committed) loses its row. */
export function putLineAuthors(db: Db, a: LineAuthors): void {
  if (a.hunks.length === 0) {
    stmt(db, "DELETE FROM line_authors WHERE worktree = ? AND path = ?").run(a.worktree, a.path);
    return;
  }
  stmt(
    db,
    "INSERT OR REPLACE INTO line_authors (worktree, path, base, content, hunks, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
  ).run(a.worktree, a.path, a.base, a.content, JSON.stringify(a.hunks), a.updatedAt);
}

/** Every file with uncommitted hunks Tandem knows the authors of: few, the shared ones. */
export function allLineAuthors(db: Db): LineAuthors[] {
  return (stmt(db, "SELECT * FROM line_authors ORDER BY worktree, path").all() as Row[]).map(fromRow);
}
