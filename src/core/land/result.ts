import type { BlockedPath } from "./plan.js";

/** A commit the rebase stopped on. */
export interface ConflictCommit {
  sha: string;
  subject: string;
}

/** One run of `land.check`: what ran, how it ended, and the tail of what it printed. */
export interface CheckRun {
  command: string;
  /** null when it was killed (timeout) or could not start. */
  exitCode: number | null;
  timedOut: boolean;
  output: string;
}

/** Commits the check turned away, with the run that failed them. */
export interface Rejected {
  commits: ConflictCommit[];
  check: CheckRun;
}

/** A landing done for queued sessions too (docs/decisions/0032-land-queue.md). */
export interface Batch {
  /** pid of the `tandem land` that ran it. */
  leader: number;
  /** Queued landings answered with this result, the leader's own not counted. */
  waiters: number;
}

/** What one `tandem land` came to: data, formatted separately (src/cli/format/land.ts). */
export type LandResult = LandOutcomeData & { batch?: Batch };

type LandOutcomeData =
  | { outcome: "up-to-date"; branch: string; head: string; attempts: number }
  | {
      outcome: "pushed";
      branch: string;
      remote: string;
      /** The upstream before, and what the remote branch holds now. */
      from: string;
      to: string;
      /** Local commits published (rebased ones included). */
      commits: number;
      rebased: boolean;
      attempts: number;
      /** How many times land.check ran (0: none configured). */
      checks?: number;
      /** Commits the check failed, left unpushed on top of the local branch. */
      rejected?: Rejected;
    }
  /** Behind only: the checkout moved forward to the upstream, nothing to publish. */
  | { outcome: "fast-forwarded"; branch: string; from: string; to: string; attempts: number }
  /** The move would touch someone's work: nothing changed. */
  | { outcome: "refused"; branch: string; reason: "held"; blocked: BlockedPath[]; attempts: number }
  | {
      outcome: "conflicted";
      branch: string;
      commit: ConflictCommit;
      paths: string[];
      attempts: number;
    }
  /** land.check failed for every commit of the batch: nothing pushed, the shared checkout unchanged. */
  | {
      outcome: "check-failed";
      branch: string;
      rejected: Rejected;
      checks: number;
      attempts: number;
    }
  /** Could not land for a reason retrying now will not fix (no upstream, detached HEAD, git failed...). */
  | {
      outcome: "failed";
      branch: string | null;
      stage: string;
      message: string;
      fix: string;
      attempts: number;
    };

export type LandOutcome = LandResult["outcome"];

/** Landed means the remote holds all the local work (or there was none to publish). */
export const landed = (r: LandResult): boolean =>
  (r.outcome === "pushed" && !r.rejected) || r.outcome === "up-to-date" || r.outcome === "fast-forwarded";
