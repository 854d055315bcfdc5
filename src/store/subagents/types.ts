/**
 * The plain shapes of a sub-agent and its captures and applies: capture finds them, the store
 * keeps and parses them (store/subagents/rows.ts), the lifecycle and apply decide on them.
 */
import type { ClientName } from "../../clients/index.js";

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

export type ApplyStage =
  | "none"
  | "am-started"
  | "commits-applied"
  | "worktree-started"
  | "blocked"
  | "failed"
  | "completed";

export interface SubRecord {
  id: string;
  name: string | null;
  client: ClientName | "exec";
  parentSession: string | null;
  childSession: string | null;
  origin: string;
  worktree: string;
  branch: string;
  base: string;
  baseRef: string;
  args: string[];
  log: string;
  runnerPid: number | null;
  runnerStart: string | null;
  childPid: number | null;
  childStart: string | null;
  createdTs: number;
  exited: boolean;
  exitedSeq: number | null;
  exitCode: number | null;
  exitSignal: string | null;
  exitReason: string | null;
  exitMessage: string | null;
  latestCapture: string | null;
  captures: number;
  removal: "removed" | "discarded" | null;
}

export interface SeriesRecord {
  target: string;
  base: string;
  commitCount: number;
  mboxBlob: string | null;
  mboxBytes: number;
  error: string | null;
}

/**
 * A stored capture: what captureWorktree found, plus its row's identity and the per-target series.
 * Its patch paths stay in the event (recordedPatchPaths): only an apply reads them.
 */
export interface CaptureRecord extends Omit<CaptureResult, "patchPaths"> {
  id: string;
  subId: string;
  number: number;
  recordedSeq: number;
  recordedTs: number;
  series: SeriesRecord[];
}

export interface PreApply {
  path: string;
  blob: string | null;
}

export interface ApplyRecord {
  subId: string;
  target: string;
  captureId: string;
  stage: ApplyStage;
  fence: string | null;
  seriesBase: string | null;
  seriesBlob: string | null;
  amHead: string | null;
  stagedBefore: string[];
  preApply: PreApply[];
  postHead: string | null;
  appliedChildHead: string | null;
  commitsApplied: number;
  patchApplied: boolean;
  paths: string[];
  message: string | null;
  failingCommit: string | null;
  ackUncaptured: boolean;
  ackPartial: boolean;
  updatedSeq: number;
}
