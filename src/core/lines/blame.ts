/** What `tandem blame` shows of a file's hunks (decision 0061): plain rows, printed or as JSON. */
import type { OwnedHunk } from "./layout.js";

export interface BlameAuthor {
  session: string;
  name: string;
  client: string | null;
}

export interface BlameRow {
  /** 1-based inclusive lines of the file now; a deletion shows the line after it (`first > last`). */
  first: number;
  last: number;
  added: number;
  removed: number;
  authors: BlameAuthor[];
}

export function blameRows(hunks: readonly OwnedHunk[], author: (id: string) => BlameAuthor): BlameRow[] {
  return hunks.map((h) => ({
    first: h.bStart + 1,
    last: h.bEnd,
    added: h.bEnd - h.bStart,
    removed: h.aEnd - h.aStart,
    authors: h.owners.map(author),
  }));
}

/** Where a hunk is in the file now, in words: "line 4", "lines 4–6", "before line 9". */
export const where = (r: BlameRow): string =>
  r.added === 0
    ? `before line ${r.first}`
    : r.first === r.last
      ? `line ${r.first}`
      : `lines ${r.first}–${r.last}`;

const who = (a: BlameAuthor): string => (a.client ? `${a.name} (${a.client})` : a.name);

/** The human form: one line per hunk, its place, size and authors. */
export function blameText(path: string, rows: readonly BlameRow[]): string {
  if (rows.length === 0) return `${path}: no uncommitted changes.\n`;
  const head = `${path}: ${rows.length} uncommitted hunk${rows.length === 1 ? "" : "s"}\n`;
  return (
    head +
    rows.map((r) => `  ${where(r)}  +${r.added} -${r.removed}  ${r.authors.map(who).join(", ")}\n`).join("")
  );
}
