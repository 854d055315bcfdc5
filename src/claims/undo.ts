/**
 * `tandem undo` (decisions 0061, 0074): a session's uncommitted hunks (all, one turn's, or those
 * since a time) taken back to the base, file by file, every other author's bytes left as they are.
 * Planned first (the preview), applied only when no hunk of the session carries another author's
 * later change or its own writes from outside the window, and no file moved meanwhile.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { splitLines } from "../core/lines/diff.js";
import type { OwnedHunk } from "../core/lines/layout.js";
import { planUndo, previewHunk, type UndoPlan, undoneText } from "../core/lines/undo.js";
import type { UndoWindow } from "../core/lines/window.js";
import { allLineAuthors } from "../store/claims/line-authors.js";
import type { Db } from "../store/db.js";
import { type FileTexts, observeFile, readTexts } from "./line-authors.js";

export interface FileUndo {
  worktree: string;
  path: string;
  texts: FileTexts;
  hunks: OwnedHunk[];
  plan: UndoPlan;
}

/** The session's undo of `window` over the files it has hunks in (or those of `only`, absolute paths). */
export function planSessionUndo(
  db: Db,
  session: string,
  now: number,
  only: ReadonlySet<string> | null,
  window: UndoWindow,
): FileUndo[] {
  const out: FileUndo[] = [];
  for (const r of allLineAuthors(db)) {
    if (only && !only.has(join(r.worktree, r.path))) continue;
    const hunks = observeFile(db, r.worktree, r.path, null, now);
    const texts = readTexts(r.worktree, r.path);
    if (!hunks || !texts) continue;
    const plan = planUndo(hunks, session, window);
    if (plan.revert.length + plan.conflicts.length > 0)
      out.push({ worktree: r.worktree, path: r.path, texts, hunks, plan });
  }
  return out;
}

/**
 * The preview: per file, each hunk's lines now and what comes back; conflicts named, with another
 * author's names or, for a hunk also written outside the window, `outside` (e.g. "before turn 3").
 */
export function previewText(
  files: readonly FileUndo[],
  nameOf: (id: string) => string,
  outside: string,
): string {
  const out: string[] = [];
  for (const f of files) {
    const base = splitLines(f.texts.base);
    const current = splitLines(f.texts.current);
    out.push(`${f.path}:`);
    for (const h of f.plan.revert) out.push(...previewHunk(base, current, h));
    for (const { hunk, cause } of f.plan.conflicts) {
      const others = hunk.owners
        .map(nameOf)
        .filter((n) => n !== "")
        .join(", ");
      const why = cause === "author" ? `also changed by ${others}` : `also written ${outside}`;
      out.push(`${previewHunk(base, current, hunk)[0]} conflict: ${why}`);
    }
  }
  return `${out.join("\n")}\n`;
}

/** Writes each file's undone text; a file changed since it was planned stops the undo there. */
export function applyUndo(db: Db, files: readonly FileUndo[], now: number): string | null {
  for (const f of files) {
    const again = readTexts(f.worktree, f.path);
    if (!again || again.current !== f.texts.current || again.base !== f.texts.base)
      return `${f.path} changed while the undo was planned, so nothing was undone; run the undo again to see the new preview.`;
  }
  for (const f of files) {
    writeFileSync(
      join(f.worktree, f.path),
      undoneText(splitLines(f.texts.base), splitLines(f.texts.current), f.hunks, f.plan),
    );
    observeFile(db, f.worktree, f.path, null, now);
  }
  return null;
}
