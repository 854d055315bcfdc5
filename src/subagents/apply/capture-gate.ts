import { type Printer, spanned } from "../../core/printed.js";
import type { Artifact } from "../capture/artifact.js";
import { type InProgress, inProgressAdvice } from "../capture/operation.js";
import type { ApplyRequest } from "./types.js";

/** What apply must know about the state the child's work was captured in. */
export interface ChildStateFacts {
  /** The operation the child stopped in the middle of, when the capture found one. */
  inProgress: InProgress | null;
  /** Paths the uncommitted patch fills with conflict markers, read from the stored bytes. */
  conflictMarkers: readonly string[];
  /** `--allow-in-progress`: apply the half-done state as it is. */
  allowInProgress: boolean;
  /** `--allow-conflict-markers`: the markers are meant to be there (a test fixture, say). */
  allowConflictMarkers: boolean;
  worktree: string;
  branch: string;
  subId: string;
  /** Spells the commands a refusal suggests for the caller. */
  printer: Printer;
}

export function childStateFacts(art: Artifact, req: ApplyRequest, printer: Printer): ChildStateFacts {
  return {
    inProgress: art.capture.inProgress,
    conflictMarkers: art.conflictMarkers,
    allowInProgress: req.allowInProgress === true,
    allowConflictMarkers: req.allowConflictMarkers === true,
    worktree: req.sub.worktree,
    branch: req.sub.branch,
    subId: req.sub.id,
    printer,
  };
}

export interface Refusal {
  reason: string;
  paths: string[];
}

const list = (paths: readonly string[]): string =>
  paths.length > 8 ? `${paths.slice(0, 8).join(", ")} and ${paths.length - 8} more` : paths.join(", ");

/**
 * Half-done work is never applied as clean work: a capture taken mid-operation is refused unless
 * --allow-in-progress, and conflict markers in the patch are refused even then, unless
 * --allow-conflict-markers. Pure; warnings for what was let through go into `warnings`.
 */
export function childStateGate(f: ChildStateFacts, warnings: string[]): Refusal | null {
  const op = f.inProgress;
  if (op !== null) {
    const advice = inProgressAdvice(op, f.worktree, f.subId, f.branch, f.printer);
    if (!f.allowInProgress) {
      return {
        reason: `the capture is incomplete: ${advice}. To apply the half-done state as it is anyway, pass --allow-in-progress; nothing was applied.`,
        paths: [...op.conflicted],
      };
    }
    warnings.push(
      `applying a capture taken in the middle of a git ${op.operation}, accepted with --allow-in-progress.`,
    );
  }
  if (f.conflictMarkers.length === 0) return null;
  if (f.allowConflictMarkers) {
    warnings.push(
      `applying conflict markers in ${list(f.conflictMarkers)}, accepted with --allow-conflict-markers.`,
    );
    return null;
  }
  return {
    reason: `the uncommitted patch adds conflict markers to ${list(f.conflictMarkers)}: left by an unfinished merge, rebase or cherry-pick in the child, not work. Resolve them in ${f.worktree} and run ${spanned(f.printer, "sub", "capture", f.subId)} again, or, if they are meant to be there, pass --allow-conflict-markers; nothing was applied.`,
    paths: [...f.conflictMarkers],
  };
}
