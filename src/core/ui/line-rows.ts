/**
 * The board's rows for files shared by lines (issue 40 item 1, decision 0061): per file, each
 * uncommitted hunk's place in the file and its authors, as `tandem blame` reads them. Pure: the
 * server reads the store, the page only draws.
 */
import { type BlameAuthor, blameRows, where } from "../lines/blame.js";
import { type OwnedHunk, UNATTRIBUTED } from "../lines/layout.js";

/** Who wrote a hunk: a session (its name and client), or lines no hook announced. */
export type UiLineAuthor =
  | { kind: "session"; name: string; client: string | null }
  | { kind: "writer"; name: "another writer" };

export interface UiLineHunk {
  /** "line 4", "lines 4–6", "before line 9" (a deletion), in the file as it was last seen. */
  where: string;
  added: number;
  removed: number;
  authors: UiLineAuthor[];
}

export interface UiLineFile {
  path: string;
  hunks: UiLineHunk[];
}

/** One recorded file: its path as the board shows it, and its hunks. */
export interface LineFileInput {
  path: string;
  hunks: readonly OwnedHunk[];
}

/** A session's name and client, or null when the store no longer has it. */
export type SessionLookup = (id: string) => { name: string; client: string } | null;

const uiAuthor = (a: BlameAuthor): UiLineAuthor =>
  a.session === UNATTRIBUTED
    ? { kind: "writer", name: "another writer" }
    : { kind: "session", name: a.name, client: a.client };

function named(session: string, lookup: SessionLookup): BlameAuthor {
  const s = lookup(session);
  return { session, name: s?.name ?? session, client: s?.client ?? null };
}

/** The files with hunks, by path; a file whose hunks are gone is left out. */
export function lineFiles(files: readonly LineFileInput[], lookup: SessionLookup): UiLineFile[] {
  return files
    .filter((f) => f.hunks.length > 0)
    .map((f) => ({
      path: f.path,
      hunks: blameRows(f.hunks, (session) => named(session, lookup)).map((r) => ({
        where: where(r),
        added: r.added,
        removed: r.removed,
        authors: r.authors.map(uiAuthor),
      })),
    }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** An author as one line of text: "amber-fox (codex)", "another writer". */
export const authorText = (a: UiLineAuthor): string =>
  a.kind === "session" && a.client ? `${a.name} (${a.client})` : a.name;
