import { gateFacts, refused } from "./apply-fresh.js";
import {
  applyPatch,
  headOf,
  isAncestor,
  operationInProgress,
  targetDirty,
  unmergedPaths,
} from "./apply-git.js";
import { blockedOutcome, complete, markersLeft, unstageNew, worktreeStage } from "./apply-machine.js";
import { gates } from "./apply-preflight.js";
import { applyKey, type Run, record, staged } from "./apply-record.js";
import type { ApplyOutcome } from "./apply-types.js";
import { short } from "./ids.js";
import { mboxSeries, rangeSeries, sameSeries } from "./patch-ids.js";
import { overlapping } from "./path-policy.js";
import {
  type CommitDecision,
  type CommitFacts,
  partialRefusal,
  reconcileCommits,
  reconcileWorktree,
  type WorktreeDecision,
} from "./reconcile.js";
import type { ApplyRecord } from "./records.js";

type ResumeStage = CommitFacts["stage"];

/** Reads what the repository says about an interrupted apply's commits. */
export function commitFacts(run: Run, row: ApplyRecord): CommitFacts {
  const { top, art } = run;
  const head = headOf(top);
  const fence = row.fence!;
  const fenceIsAncestor = head !== null && isAncestor(top, fence, head);
  const checkSeries = row.stage === "am-started" && head !== null && head !== fence && fenceIsAncestor;
  const landed = checkSeries ? rangeSeries(top, fence, head) : null;
  return {
    stage: row.stage as ResumeStage,
    fence,
    amHead: row.amHead,
    head,
    amInProgress: operationInProgress(top) === "am",
    fenceIsAncestor,
    amHeadIsAncestor: head !== null && row.amHead !== null && isAncestor(top, row.amHead, head),
    seriesLanded: checkSeries
      ? landed !== null && seriesMatches(top, landed, art.readMbox(), art.commits)
      : null,
  };
}

function seriesMatches(
  top: string,
  landed: NonNullable<ReturnType<typeof rangeSeries>>,
  mbox: Buffer | null,
  commits: readonly string[],
): boolean {
  return mbox !== null && sameSeries(landed, mboxSeries(top, mbox, commits));
}

/** Whether the uncommitted patch of a worktree-started or blocked apply is in the worktree. */
export function worktreeDecision(run: Run): WorktreeDecision {
  const { top, art } = run;
  const mine = new Set(art.patchPaths);
  return reconcileWorktree({
    unmerged: unmergedPaths(top).filter((p) => mine.has(p)),
    reverseApplies: applyPatch(top, art.patchFile!, "reverse-check").ok,
    forwardApplies: applyPatch(top, art.patchFile!, "check").ok,
  });
}

export const AM_IN_PROGRESS =
  "a `git am` session is in progress in the target (left by the interrupted apply). Inspect it with `git am --show-current-patch`, then run `git am --continue` to finish it or `git am --abort` to undo it, and run apply again.";

export function failClosedMessage(row: ApplyRecord, reason: string): string {
  return `cannot continue the interrupted apply: ${reason}. Nothing was changed. Reset the target to ${short(row.fence)} to start over, or finish by hand and rerun with --acknowledge-partial.`;
}

/** `--acknowledge-partial`: the user finished by hand; unstage what the apply staged and complete. */
function acknowledgePartial(run: Run, row: ApplyRecord, head: string): ApplyOutcome {
  const conflicted = [...new Set([...row.paths, ...unmergedPaths(run.top)])].filter((p) =>
    run.art.patchPaths.includes(p),
  );
  const refusal = partialRefusal({
    amInProgress: operationInProgress(run.top) === "am",
    fenceIsAncestor: isAncestor(run.top, row.fence!, head),
    markersLeft: markersLeft(run.top, conflicted),
  });
  if (refusal) return refused(run, `cannot acknowledge: ${refusal}.`, conflicted);
  unstageNew(run, row.stagedBefore);
  record(run, [
    {
      kind: "apply.acknowledged",
      data: { ...applyKey(run), what: "partial", detail: `resolved by hand at stage ${row.stage}` },
    },
  ]);
  return complete(run, row.fence!, row.preApply, run.art.patchFile !== null, true);
}

function worktreeAfterLanding(run: Run, row: ApplyRecord, amHead: string): ApplyOutcome {
  const fence = row.fence!;
  const fresh = row.stage === "am-started" || row.stage === "commits-applied";
  const decision: WorktreeDecision = fresh || !run.art.patchFile ? { kind: "apply" } : worktreeDecision(run);
  if (decision.kind === "finish") {
    unstageNew(run, row.stagedBefore);
    return complete(run, fence, row.preApply, true);
  }
  if (decision.kind === "blocked") {
    if (run.req.ackPartial) return acknowledgePartial(run, row, headOf(run.top)!);
    if (row.stage !== "blocked" || row.paths.join("\0") !== decision.paths.join("\0")) {
      record(run, [
        {
          kind: "apply.blocked",
          data: { ...applyKey(run), paths: decision.paths, message: decision.reason },
        },
      ]);
    }
    return blockedOutcome(run, decision.paths, decision.reason);
  }
  const collide = run.art.patchFile ? overlapping(run.art.patchPaths, targetDirty(run.top)) : [];
  if (collide.length > 0) {
    return refused(
      run,
      `the commits are in, but the target now has uncommitted changes in paths the uncommitted patch touches: ${collide.join(", ")}; commit or stash them, then run apply again.`,
      collide,
    );
  }
  return worktreeStage(run, fence, amHead, row.stagedBefore);
}

/**
 * Continues an interrupted apply from its durable marker (docs/product.md §7.3).
 * Returns null when HEAD is still at the fence: nothing landed, start fresh.
 */
export function resumeApply(run: Run, row: ApplyRecord, running: boolean): ApplyOutcome | null {
  const gate = gates({ ...gateFacts(run, row.ackUncaptured), running });
  if (!gate.ok) return refused(run, gate.reason, gate.paths);
  run.warnings.push(...gate.warnings);
  if (run.req.expectedHead !== null && run.req.expectedHead !== row.fence) {
    return refused(
      run,
      `--expected-head ${short(run.req.expectedHead)} is not the pre-apply HEAD ${short(row.fence)} recorded by the interrupted apply; nothing was changed.`,
      [],
    );
  }
  const decision: CommitDecision = reconcileCommits(commitFacts(run, row));
  if (decision.kind === "fresh") return null;
  if (decision.kind === "am-in-progress") return refused(run, AM_IN_PROGRESS, []);
  if (decision.kind === "fail-closed") {
    if (run.req.ackPartial) return acknowledgePartial(run, row, headOf(run.top)!);
    return refused(run, failClosedMessage(row, decision.reason), []);
  }
  if (decision.recordLanding) {
    const series = { seriesBase: run.art.seriesBase, seriesBlob: run.art.seriesBlob };
    record(run, [
      staged(run, { stage: "commits-applied", fence: row.fence!, ...series, amHead: decision.amHead }),
    ]);
  }
  return worktreeAfterLanding(run, row, decision.amHead);
}
