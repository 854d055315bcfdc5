/**
 * Who wrote each uncommitted hunk of a file (decision 0061), kept current: the I/O around
 * core/lines/layout.ts. Reads the file and its committed base, re-derives the hunks from what
 * the store last saw, and records them, all in one short write.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { digest } from "../core/digest.js";
import { joinLines, splitLines } from "../core/lines/diff.js";
import { attribute, type OwnedHunk, renderOnly } from "../core/lines/layout.js";
import { once, type Written } from "../core/lines/written.js";
import { gitStatus } from "../git/run.js";
import { type LineAuthors, lineAuthors, putLineAuthors } from "../store/claims/line-authors.js";
import { holdingOfPath } from "../store/claims/rows.js";
import type { Db } from "../store/db.js";
import { write } from "../store/ledger/append.js";

/** Larger files are claimed whole: a line diff of them would cost the hook path too much. */
export const MAX_LINE_FILE_BYTES = 2 * 1024 * 1024;

export interface FileTexts {
  worktree: string;
  path: string;
  /** The file in HEAD; empty when it is new. */
  base: string;
  /** The file on disk; empty when it is gone. */
  current: string;
}

const isText = (t: string): boolean => t.length <= MAX_LINE_FILE_BYTES && !t.includes("\0");

function readCurrent(abs: string): string {
  try {
    return readFileSync(abs, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw e;
  }
}

/** The file's base and current text, or null when it is not a text file lines can be claimed in. */
export function readTexts(worktree: string, path: string): FileTexts | null {
  const current = readCurrent(join(worktree, path));
  if (!isText(current)) return null;
  const shown = gitStatus(worktree, ["cat-file", "blob", `HEAD:${path}`]);
  const base = shown.status === 0 ? shown.stdout : "";
  return isText(base) ? { worktree, path, base, current } : null;
}

/**
 * The hunks of `t` with their authors, given what the store last saw (`row`): `author` wrote the
 * rest, `when` (decision 0074; left out where only the authors are read).
 */
export function hunksNow(
  t: FileTexts,
  row: LineAuthors | null,
  author: string | null,
  when?: Written,
): OwnedHunk[] {
  const base = splitLines(t.base);
  const previous = row ? splitLines(row.content) : base;
  return attribute(base, previous, row?.hunks ?? [], splitLines(t.current), author, when);
}

/**
 * Records the file's hunks now: what changed since the store last saw it is `author`'s (null:
 * unattributed), written now in the author's `turn` (the sequence number of its prompt in force;
 * null: unknown). A file seen for the first time has its hunks credited to its claim's holder,
 * whose they are under whole-file claims (decision 0061), written at some time between the claim
 * and now (decision 0074), else to `author`. Returns the hunks, or null for a file that is not
 * claimed by lines.
 */
export function observeFile(
  db: Db,
  worktree: string,
  path: string,
  author: string | null,
  now: number,
  turn: number | null = null,
): OwnedHunk[] | null {
  const t = readTexts(worktree, path);
  if (!t) return null;
  return write(
    db,
    () => {
      const row = lineAuthors(db, worktree, path);
      const baseDigest = digest(t.base);
      if (row && row.content === t.current && row.base === baseDigest) return row.hunks;
      if (!row && t.current === t.base) return [];
      const hunks = row
        ? hunksNow(t, row, author, once({ at: now, turn }))
        : firstSeen(db, t, author, now, turn);
      putLineAuthors(db, { worktree, path, base: baseDigest, content: t.current, hunks, updatedAt: now });
      return hunks;
    },
    "gating",
  );
}

/** A file's hunks when Tandem first tracks it: the holder's since its claim, else this write's. */
function firstSeen(
  db: Db,
  t: FileTexts,
  author: string | null,
  now: number,
  turn: number | null,
): OwnedHunk[] {
  const holding = holdingOfPath(db, t.worktree, t.path);
  if (!holding) return hunksNow(t, null, author, once({ at: now, turn }));
  // The holder wrote them since it took the claim, in which turns no hook recorded.
  const when = { first: { at: holding.since, turn: null }, last: { at: now, turn: null } };
  return hunksNow(t, null, holding.session, when);
}

/** Whether Tandem tracks the file by lines yet: it does from the first time two sessions meet in it. */
export const tracked = (db: Db, worktree: string, path: string): boolean =>
  lineAuthors(db, worktree, path) !== null;

/** The file as it would be with only the hunks `mine` accepts: what one session stages or keeps. */
export function shareOf(t: FileTexts, hunks: readonly OwnedHunk[], mine: (h: OwnedHunk) => boolean): string {
  return joinLines(renderOnly(splitLines(t.base), splitLines(t.current), hunks, mine));
}
