/** The plain shapes of a sub-agent's capture, shared by capture (which finds them) and the store (which keeps them). */

/** A git operation a child can stop in the middle of, leaving half-done state in its worktree. */
export type ChildOperation = "rebase" | "am" | "merge" | "cherry-pick" | "revert" | "bisect" | "sequencer";

/** What capture found in progress in the child's worktree; recorded in the capture event. */
export interface InProgress {
  operation: ChildOperation;
  /** The branch being rebased or bisected (short name); null when detached or not known. */
  branch: string | null;
  /** Rebase: the commit the branch is being moved onto. */
  onto: string | null;
  /** Rebase: the branch's commit before it started (the branch ref still names it). */
  origHead: string | null;
  /** The commit being merged, picked, reverted or replayed when it stopped. */
  incoming: string | null;
  /** Unmerged paths, from the capture's `git status`. */
  conflicted: string[];
}

/** Why some of the child's work is not in the artifact. Any entry blocks apply/remove until acknowledged. */
export type UncapturedReason =
  | "dirty-submodule"
  | "embedded-repository"
  | "dirty-size-exceeded"
  | "patch-size-exceeded"
  | "mbox-size-exceeded"
  | "merge-commits"
  | `capture-failed: ${string}`;

export interface Uncaptured {
  reason: UncapturedReason;
  /** Worktree paths; for `merge-commits`, the merge commit ids. */
  paths: string[];
}

export interface CaptureResult {
  /** False when any step failed; the failure is in `uncaptured` as `capture-failed: …`. */
  ok: boolean;
  base: string;
  /** The child's HEAD at capture time; null when it could not be read. */
  head: string | null;
  /** Non-merge commits in BASE..HEAD, i.e. messages in the mbox. */
  commitCount: number;
  mboxBlob: string | null;
  mboxBytes: number;
  patchBlob: string | null;
  patchBytes: number;
  /** True when status showed anything, and whenever the dirty state could not be determined. */
  hadUncommittedChanges: boolean;
  dirtyPaths: string[];
  uncaptured: Uncaptured[];
  /**
   * Every path the uncommitted patch names, read from it as git wrote it (patch-scan.ts), so an
   * apply need not scan 50 MB again; null without a patch.
   */
  patchPaths: string[] | null;
  /** A rebase, merge, am… the child stopped in the middle of: its work is not finished. */
  inProgress: InProgress | null;
  /** Paths the uncommitted patch fills with conflict markers (added lines). */
  conflictMarkers: string[];
}
