import { short } from "../shared/ids.js";

/** What a retry finds about the commit series of an interrupted apply. */
export interface CommitFacts {
  stage: "am-started" | "commits-applied" | "worktree-started" | "blocked";
  fence: string;
  amHead: string | null;
  head: string | null;
  amInProgress: boolean;
  /** The fence is HEAD or an ancestor of it. */
  fenceIsAncestor: boolean;
  /** amHead is HEAD or an ancestor of it (false when amHead is null). */
  amHeadIsAncestor: boolean;
  /** fence..HEAD is exactly the artifact's series by patch id; null when not computed. */
  seriesLanded: boolean | null;
}

export type CommitDecision =
  | { kind: "fresh" }
  | { kind: "am-in-progress" }
  | { kind: "landed"; amHead: string; recordLanding: boolean }
  | { kind: "fail-closed"; reason: string };

const failClosed = (reason: string): CommitDecision => ({ kind: "fail-closed", reason });

/**
 * Reconciles a durable stage marker with the repository (docs/product.md §7.3). An
 * am-started marker with an am session running asks the user; with HEAD still
 * at the fence nothing landed; with exactly the artifact's commits after the
 * fence they landed; anything else fails closed. Later stages only need their
 * commits to still be in HEAD.
 */
export function reconcileCommits(f: CommitFacts): CommitDecision {
  if (f.amInProgress) return { kind: "am-in-progress" };
  if (f.head === null) return failClosed("the target has no HEAD any more");
  if (f.stage === "am-started") {
    if (f.head === f.fence) return { kind: "fresh" };
    if (!f.fenceIsAncestor) {
      return failClosed(
        `HEAD ${short(f.head)} no longer contains the pre-apply HEAD ${short(f.fence)} (reset or rebased since the interrupted apply)`,
      );
    }
    if (f.seriesLanded === true) return { kind: "landed", amHead: f.head, recordLanding: true };
    return failClosed(
      `the commits after the pre-apply HEAD ${short(f.fence)} are not exactly the artifact's (HEAD moved by other work, or only part of the series landed)`,
    );
  }
  if (f.amHead === null || !f.amHeadIsAncestor) {
    return failClosed(
      `HEAD ${short(f.head)} no longer contains the applied commits (${short(f.amHead ?? f.fence)}); it was reset or rebased`,
    );
  }
  return { kind: "landed", amHead: f.amHead, recordLanding: false };
}

/** What a retry finds about the uncommitted patch of an interrupted worktree stage. */
export interface WorktreeFacts {
  /** Patch paths with unmerged index entries (a three-way apply left conflicts). */
  unmerged: readonly string[];
  /** The patch reverse-applies to the worktree: all of it is there. */
  reverseApplies: boolean;
  /** The patch applies to the worktree: none of it is there. */
  forwardApplies: boolean;
}

export type WorktreeDecision =
  | { kind: "apply" }
  | { kind: "finish" }
  | { kind: "blocked"; paths: string[]; reason: string };

/**
 * Whether the patch of a worktree-started (or blocked) apply landed. Reverse
 * applicability is checked first, so a conflict the user resolved to exactly
 * the child's content finishes without an acknowledgement.
 */
export function reconcileWorktree(f: WorktreeFacts): WorktreeDecision {
  if (f.unmerged.length > 0) {
    return { kind: "blocked", paths: [...f.unmerged], reason: "the uncommitted patch left conflicts" };
  }
  if (f.reverseApplies) return { kind: "finish" };
  if (f.forwardApplies) return { kind: "apply" };
  return {
    kind: "blocked",
    paths: [],
    reason: "the uncommitted patch is only partly in the worktree (or was edited since)",
  };
}

/** Facts for `--acknowledge-partial`: the user says the rest is resolved by hand. */
export interface PartialFacts {
  amInProgress: boolean;
  fenceIsAncestor: boolean;
  /** Conflicted paths that still hold conflict markers. */
  markersLeft: readonly string[];
}

/** Why an acknowledgement cannot be taken, or null. The ancestry check stays (docs/product.md §7.3). */
export function partialRefusal(f: PartialFacts): string | null {
  if (f.amInProgress)
    return "a `git am` session is still in progress; run `git am --continue` or `git am --abort` first";
  if (!f.fenceIsAncestor) {
    return "HEAD no longer contains the pre-apply HEAD; the applied commits are gone, so this cannot be acknowledged";
  }
  if (f.markersLeft.length > 0)
    return `conflict markers remain in ${f.markersLeft.join(", ")}; resolve them first`;
  return null;
}
