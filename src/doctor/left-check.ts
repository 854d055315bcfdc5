import { findLeftWork } from "../claims/left-work.js";
import { type LeftItem, leftLine, leftWhatToDo } from "../core/claims/left-work.js";
import type { Printer } from "../core/printed.js";
import type { Finding } from "./finding.js";
import { readStore } from "./read-store.js";

export interface LeftTarget {
  stateDir: string;
  root: string;
  repoTop: string | null;
  freshnessSeconds: number;
  now: number;
  /** Doctor's fixes are for a person at a terminal. */
  printer: Printer;
}

/**
 * Left work (decision 0029) is a problem while any exists: uncommitted bytes no live session's
 * end-turn check covers. One finding per file, each with its commands.
 */
export function leftWorkFindings(t: LeftTarget, left: readonly LeftItem[]): Finding[] {
  return left.map((i) => ({
    level: "problem" as const,
    check: "left work",
    detail: `${leftLine(i, t.now)}: uncommitted, and no live session's end-turn check covers it`,
    fix: leftWhatToDo(i.path, i.owner.name, t.printer),
  }));
}

/** Left work as doctor sees it: read once, for its own findings and to keep it out of stale claims. */
export function doctorLeftWork(t: LeftTarget): LeftItem[] {
  return (
    readStore(t.stateDir, (db) => {
      const q = { worktree: t.root, repoTop: t.repoTop, now: t.now, freshnessSeconds: t.freshnessSeconds };
      return findLeftWork(db, q).left;
    }) ?? []
  );
}
