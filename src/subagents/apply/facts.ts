import type { Artifact } from "../capture/artifact.js";
import {
  applyPatch,
  headOf,
  isAncestor,
  operationInProgress,
  targetDirty,
  targetState,
  unmergedPaths,
} from "../shared/git.js";
import type { ApplyRecord } from "../shared/records.js";
import { childStateFacts } from "./capture-gate.js";
import { markersLeft } from "./machine.js";
import { mboxSeries, rangeSeries, sameSeries } from "./patch-ids.js";
import type { FreshFacts, ResumeFacts, ResumeRow, ResumeStage } from "./plan.js";
import type { GateFacts } from "./preflight.js";
import type { CommitFacts } from "./reconcile.js";
import type { Run } from "./record.js";
import { wiringChanges } from "./wiring.js";

/** Reads what an apply decides from; the decision itself is apply-plan.ts. */

/** Every path the artifact touches: the commit series and the uncommitted patch. */
export function touchedPaths(art: Artifact): string[] {
  return [...new Set([...art.seriesPaths, ...art.patchPaths])];
}

const RESUMABLE: ReadonlySet<string> = new Set([
  "am-started",
  "commits-applied",
  "worktree-started",
  "blocked",
]);

/** An interrupted apply's record with the fields its stage guarantees, or null when it is not one. */
export function resumeRow(row: ApplyRecord): ResumeRow | null {
  if (!RESUMABLE.has(row.stage) || row.fence === null) return null;
  return { ...row, stage: row.stage as ResumeStage, fence: row.fence };
}

export function gateFacts(run: Run, running: boolean, ackRecorded: boolean): GateFacts {
  const { art, req } = run;
  const touched = touchedPaths(art);
  return {
    running,
    artifactError: art.error,
    uncaptured: art.capture.uncaptured,
    ackUncaptured: req.ackUncaptured || ackRecorded,
    touched,
    only: req.only,
    worktree: req.sub.worktree,
    wiring: wiringChanges(touched, run.top, run.ctx.root),
    allowConfig: req.allowConfig,
    subId: req.sub.id,
    child: childStateFacts(art, req, run.ctx.printer),
  };
}

/** Reads the target for a fresh apply (docs/product.md §7.3 preflight). */
export function freshFacts(run: Run, running: boolean): FreshFacts {
  const { art, req, top } = run;
  const { head, staged, dirty } = targetState(top);
  return {
    ...gateFacts(run, running, false),
    head,
    expectedHead: req.expectedHead,
    anchor: art.anchor,
    anchorIsAncestor: head !== null && isAncestor(top, art.anchor, head),
    operation: head === null ? null : operationInProgress(top),
    hasCommits: art.commits.length > 0,
    hasPatch: art.patchFile !== null,
    staged: head === null ? [] : staged,
    dirty,
  };
}

/** What the repository says about an interrupted apply's commits. */
function commitFacts(run: Run, row: ResumeRow): CommitFacts {
  const { top, art } = run;
  const head = headOf(top);
  const { fence } = row;
  const fenceIsAncestor = head !== null && isAncestor(top, fence, head);
  const checkSeries = row.stage === "am-started" && head !== null && head !== fence && fenceIsAncestor;
  const landed = checkSeries ? rangeSeries(top, fence, head) : null;
  const mbox = checkSeries ? art.readMbox() : null;
  return {
    stage: row.stage,
    fence,
    amHead: row.amHead,
    head,
    amInProgress: operationInProgress(top) === "am",
    fenceIsAncestor,
    amHeadIsAncestor: head !== null && row.amHead !== null && isAncestor(top, row.amHead, head),
    seriesLanded: checkSeries
      ? landed !== null && mbox !== null && sameSeries(landed, mboxSeries(top, mbox, art.commits))
      : null,
  };
}

/** Reads everything the plan of an interrupted apply may need, once. */
export function resumeFacts(run: Run, row: ResumeRow, running: boolean): ResumeFacts {
  const { top, art, req } = run;
  const commits = commitFacts(run, row);
  const patch = art.patchFile;
  const mine = new Set(art.patchPaths);
  const unmerged = unmergedPaths(top).filter((p) => mine.has(p));
  const late = row.stage === "worktree-started" || row.stage === "blocked";
  const conflicted = [...new Set([...row.paths, ...unmerged])].filter((p) => mine.has(p));
  return {
    gate: gateFacts(run, running, row.ackUncaptured),
    row,
    expectedHead: req.expectedHead,
    commits,
    hasPatch: patch !== null,
    patchPaths: art.patchPaths,
    worktree:
      late && patch !== null
        ? {
            unmerged,
            reverseApplies: applyPatch(top, patch, "reverse-check").ok,
            forwardApplies: applyPatch(top, patch, "check").ok,
          }
        : null,
    dirty: targetDirty(top),
    partial:
      req.ackPartial && commits.head !== null
        ? {
            amInProgress: commits.amInProgress,
            fenceIsAncestor: commits.fenceIsAncestor,
            markersLeft: markersLeft(top, conflicted),
            conflicted,
          }
        : null,
  };
}
