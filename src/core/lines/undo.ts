/**
 * Undo per session (decision 0061), pure: which of a file's hunks a session's undo takes back to
 * the base, and which it cannot, because another author changed lines inside them since.
 */
import { joinLines } from "./diff.js";
import { type OwnedHunk, withoutHunks } from "./layout.js";

export interface UndoPlan {
  /** The session's own hunks: taken back to the base. */
  revert: OwnedHunk[];
  /** Hunks the session wrote with another author: undoing them would undo the other's too. */
  conflicts: OwnedHunk[];
}

export function planUndo(hunks: readonly OwnedHunk[], session: string): UndoPlan {
  const mine = hunks.filter((h) => h.owners.includes(session));
  return {
    revert: mine.filter((h) => h.owners.length === 1),
    conflicts: mine.filter((h) => h.owners.length > 1),
  };
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
