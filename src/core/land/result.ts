import type { BlockedPath } from "./plan.js";

/** A commit the rebase stopped on. */
export interface ConflictCommit {
  sha: string;
  subject: string;
}

/** What one `tandem land` came to: data, formatted separately (src/cli/format/land.ts). */
export type LandResult =
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

/** Landed means the remote holds the local work (or there was none to publish). */
export const landed = (r: LandResult): boolean =>
  r.outcome === "pushed" || r.outcome === "up-to-date" || r.outcome === "fast-forwarded";
