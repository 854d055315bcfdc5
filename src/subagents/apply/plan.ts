import { short } from "../shared/ids.js";
import type { PreApply } from "../shared/records.js";
import { overlapping } from "./path-policy.js";
import { type GateFacts, gates, type PreflightFacts, preflight } from "./preflight.js";
import {
  type CommitFacts,
  type PartialFacts,
  partialRefusal,
  reconcileCommits,
  reconcileWorktree,
  type WorktreeFacts,
} from "./reconcile.js";

/**
 * The one decision of `sub apply` (docs/product.md §7.3): from the facts of a fresh or an
 * interrupted apply, what happens next. Pure, so the real apply executes exactly the step a
 * `--dry-run` prints, and every rule is table-tested.
 */
export type ApplyStep =
  | { kind: "refuse"; reason: string; paths: string[] }
  /** An interrupted apply of which nothing landed: decide afresh from the latest capture. */
  | { kind: "start-over" }
  /** The capture holds neither commits nor uncommitted changes. */
  | { kind: "nothing"; head: string }
  /**
   * Apply what is still missing: the commit series when `am` (HEAD is then the fence), then the
   * uncommitted patch when `patch`. `amHead` is where the commits already are when not `am`.
   */
  | {
      kind: "run";
      fence: string;
      head: string;
      am: boolean;
      amHead: string;
      recordLanding: boolean;
      patch: boolean;
      /** Paths an earlier stage found staged, kept staged. */
      carried: readonly string[];
    }
  /** The uncommitted patch is already in the worktree: unstage what the apply staged, complete. */
  | { kind: "finish"; fence: string; row: ResumeRow }
  /** The patch left conflicts or landed in part; `record` when the marker does not say so yet. */
  | { kind: "blocked"; paths: string[]; reason: string; record: boolean }
  /** `--acknowledge-partial` accepted: the rest was resolved by hand. */
  | { kind: "acknowledge"; fence: string; head: string; row: ResumeRow };

export interface ApplyPlan {
  step: ApplyStep;
  warnings: string[];
}

export type ResumeStage = CommitFacts["stage"];

/** An interrupted apply's record, with the fields its stage guarantees. */
export interface ResumeRow {
  stage: ResumeStage;
  fence: string;
  amHead: string | null;
  paths: readonly string[];
  stagedBefore: readonly string[];
  preApply: readonly PreApply[];
  ackUncaptured: boolean;
}

export interface FreshFacts extends PreflightFacts {
  hasPatch: boolean;
}

export interface ResumeFacts {
  gate: GateFacts;
  row: ResumeRow;
  expectedHead: string | null;
  commits: CommitFacts;
  hasPatch: boolean;
  patchPaths: readonly string[];
  /** Whether the patch is in the worktree; read only for a worktree-started or blocked apply with a patch. */
  worktree: WorktreeFacts | null;
  /** Dirty paths of the target now. */
  dirty: readonly string[];
  /** Read only with `--acknowledge-partial` and a HEAD. */
  partial: (PartialFacts & { conflicted: string[] }) | null;
}

export const AM_IN_PROGRESS =
  "a `git am` session is in progress in the target (left by the interrupted apply). Inspect it with `git am --show-current-patch`, then run `git am --continue` to finish it or `git am --abort` to undo it, and run apply again.";

export function failClosedMessage(fence: string, reason: string): string {
  return `cannot continue the interrupted apply: ${reason}. Nothing was changed. Reset the target to ${short(fence)} to start over, or finish by hand and rerun with --acknowledge-partial.`;
}

const refuse = (reason: string, paths: string[] = []): ApplyStep => ({ kind: "refuse", reason, paths });

export function planFresh(f: FreshFacts): ApplyPlan {
  const verdict = preflight(f);
  if (!verdict.ok) return { step: refuse(verdict.reason, verdict.paths), warnings: [] };
  const head = f.head;
  if (head === null)
    return { step: refuse("the target has no commit yet; commit something first."), warnings: [] };
  const step: ApplyStep =
    !f.hasCommits && !f.hasPatch
      ? { kind: "nothing", head }
      : {
          kind: "run",
          fence: head,
          head,
          am: f.hasCommits,
          amHead: head,
          recordLanding: false,
          patch: f.hasPatch,
          carried: [],
        };
  return { step, warnings: verdict.warnings };
}

function acknowledge(f: ResumeFacts): ApplyStep {
  const head = f.commits.head;
  if (head === null || f.partial === null)
    return refuse(failClosedMessage(f.row.fence, "the target has no HEAD"));
  const refusal = partialRefusal(f.partial);
  if (refusal) return refuse(`cannot acknowledge: ${refusal}.`, f.partial.conflicted);
  return { kind: "acknowledge", fence: f.row.fence, head, row: f.row };
}

/** After the commits are known to be in: the worktree stage, from what the worktree holds. */
function afterLanding(f: ResumeFacts, amHead: string, recordLanding: boolean): ApplyStep {
  const { row } = f;
  const before = row.stage === "am-started" || row.stage === "commits-applied";
  const wd =
    before || !f.hasPatch || f.worktree === null ? { kind: "apply" as const } : reconcileWorktree(f.worktree);
  if (wd.kind === "finish") return { kind: "finish", fence: row.fence, row };
  if (wd.kind === "blocked") {
    if (f.partial !== null) return acknowledge(f);
    const changed = row.stage !== "blocked" || row.paths.join("\0") !== wd.paths.join("\0");
    return { kind: "blocked", paths: wd.paths, reason: wd.reason, record: changed };
  }
  const collide = f.hasPatch ? overlapping(f.patchPaths, f.dirty) : [];
  if (collide.length > 0) {
    return refuse(
      `the commits are in, but the target now has uncommitted changes in paths the uncommitted patch touches: ${collide.join(", ")}; commit or stash them, then run apply again.`,
      collide,
    );
  }
  return {
    kind: "run",
    fence: row.fence,
    head: f.commits.head ?? amHead,
    am: false,
    amHead,
    recordLanding,
    patch: f.hasPatch,
    carried: row.stagedBefore,
  };
}

/** Continues an interrupted apply from its durable marker; `start-over` when nothing landed. */
export function planResume(f: ResumeFacts): ApplyPlan {
  const gate = gates(f.gate);
  if (!gate.ok) return { step: refuse(gate.reason, gate.paths), warnings: [] };
  const plan = (step: ApplyStep): ApplyPlan => ({ step, warnings: gate.warnings });
  if (f.expectedHead !== null && f.expectedHead !== f.row.fence) {
    return plan(
      refuse(
        `--expected-head ${short(f.expectedHead)} is not the pre-apply HEAD ${short(f.row.fence)} recorded by the interrupted apply; nothing was changed.`,
      ),
    );
  }
  const decision = reconcileCommits(f.commits);
  if (decision.kind === "fresh") return plan({ kind: "start-over" });
  if (decision.kind === "am-in-progress") return plan(refuse(AM_IN_PROGRESS));
  if (decision.kind === "fail-closed") {
    return plan(
      f.partial !== null ? acknowledge(f) : refuse(failClosedMessage(f.row.fence, decision.reason)),
    );
  }
  return plan(afterLanding(f, decision.amHead, decision.recordLanding));
}
