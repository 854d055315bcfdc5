/**
 * Undo per session (decisions 0061, 0074), pure: which of a file's hunks a session's undo takes
 * back to the base, and which it cannot, because another author changed lines inside them since or
 * (for one turn or `--since`) the session wrote them partly outside the window.
 */
import { joinLines } from "./diff.js";
import { type OwnedHunk, withoutHunks } from "./layout.js";
import { fitOf, type UndoWindow, WHOLE_SESSION } from "./window.js";

export interface UndoConflict {
  hunk: OwnedHunk;
  /** `author`: another author's lines are in it; `window`: written both inside and outside the window. */
  cause: "author" | "window";
}

export interface UndoPlan {
  /** The session's own hunks of the window: taken back to the base. */
  revert: OwnedHunk[];
  /** Hunks undoing which would undo another author's lines, or the session's own outside the window. */
  conflicts: UndoConflict[];
}

export function planUndo(
  hunks: readonly OwnedHunk[],
  session: string,
  window: UndoWindow = WHOLE_SESSION,
): UndoPlan {
  const plan: UndoPlan = { revert: [], conflicts: [] };
  for (const h of hunks) {
    if (!h.owners.includes(session)) continue;
    const fit = fitOf(h, window);
    if (fit === "outside") continue;
    if (h.owners.length > 1) plan.conflicts.push({ hunk: h, cause: "author" });
    else if (fit === "straddles") plan.conflicts.push({ hunk: h, cause: "window" });
    else plan.revert.push(h);
  }
  return plan;
}

/** The file with the plan's hunks taken back; every other hunk's bytes as they are. */
export function undoneText(
  base: readonly string[],
  current: readonly string[],
  hunks: readonly OwnedHunk[],
  plan: UndoPlan,
): string {
  const revert = new Set(plan.revert);
  return joinLines(withoutHunks(base, current, hunks, (h) => revert.has(h)));
}

/** What the preview shows of one hunk: its lines now (`-`) and what the undo puts back (`+`). */
export function previewHunk(base: readonly string[], current: readonly string[], h: OwnedHunk): string[] {
  const first = h.bStart + 1;
  const size = h.bEnd - h.bStart;
  const where =
    size === 0 ? `before line ${first}` : size === 1 ? `line ${first}` : `lines ${first}–${h.bEnd}`;
  const strip = (l: string) => l.replace(/\r?\n$/, "");
  return [
    `  ${where}:`,
    ...current.slice(h.bStart, h.bEnd).map((l) => `    - ${strip(l)}`),
    ...base.slice(h.aStart, h.aEnd).map((l) => `    + ${strip(l)}`),
  ];
}
