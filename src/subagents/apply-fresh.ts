import { crashPoint } from "../testing/crash.js";
import { headOf, isAncestor, operationInProgress, runAm, targetState } from "./apply-git.js";
import { amFailed, complete, worktreeStage } from "./apply-machine.js";
import { type GateFacts, type PreflightFacts, preflight } from "./apply-preflight.js";
import { type Run, record, staged } from "./apply-record.js";
import { type ApplyOutcome, outcome } from "./apply-types.js";
import { wiringChanges } from "./apply-wiring.js";
import type { Artifact } from "./artifact.js";
import { childStateFacts } from "./capture-gate.js";

/** Every path the artifact touches: the commit series and the uncommitted patch. */
export function touchedPaths(art: Artifact): string[] {
  return [...new Set([...art.seriesPaths, ...art.patchPaths])];
}

export function gateFacts(run: Run, ackRecorded: boolean): GateFacts {
  const { art, req } = run;
  return {
    running: false,
    artifactError: art.error,
    uncaptured: art.capture.uncaptured,
    ackUncaptured: req.ackUncaptured || ackRecorded,
    touched: touchedPaths(art),
    only: req.only,
    worktree: req.sub.worktree,
    wiring: wiringChanges(touchedPaths(art), run.top, run.ctx.root),
    allowConfig: req.allowConfig,
    subId: req.sub.id,
    child: childStateFacts(art, req),
  };
}

/** Reads the target for the preflight of a fresh apply (docs/product.md §7.3). */
export function preflightFacts(run: Run, running: boolean): PreflightFacts {
  const { art, req, top } = run;
  const { head, staged, dirty } = targetState(top);
  return {
    ...gateFacts(run, false),
    running,
    head,
    expectedHead: req.expectedHead,
    anchor: art.anchor,
    anchorIsAncestor: head !== null && isAncestor(top, art.anchor, head),
    operation: head === null ? null : operationInProgress(top),
    hasCommits: art.commits.length > 0,
    staged: head === null ? [] : staged,
    dirty,
  };
}

/** Refusal outcome from a preflight verdict. */
export function refused(run: Run, reason: string, paths: string[]): ApplyOutcome {
  return outcome(run.req, run.art.capture.id, {
    outcome: "refused",
    paths,
    warnings: run.warnings,
    message: reason,
  });
}

/**
 * A fresh apply after a passed preflight: am-started marker (fence = HEAD),
 * `git am`, commits-applied marker, then the worktree stage. Each marker is
 * durable before the git step it announces.
 */
export function applyFresh(run: Run, head: string): ApplyOutcome {
  if (run.art.commits.length === 0 && !run.art.patchFile) return complete(run, head, [], false);
  let amHead = head;
  if (run.art.commits.length > 0) {
    const series = { seriesBase: run.art.seriesBase, seriesBlob: run.art.seriesBlob };
    record(run, [staged(run, { stage: "am-started", fence: head, ...series, amHead: null })]);
    crashPoint("apply:before-am");
    const r = runAm(run.top, run.art.mboxFile!);
    crashPoint("apply:after-am");
    if (!r.ok) return amFailed(run, head, r);
    amHead = headOf(run.top)!;
    record(run, [staged(run, { stage: "commits-applied", fence: head, ...series, amHead })]);
  }
  return worktreeStage(run, head, amHead, []);
}

/** Preflight, then a fresh apply; the verdict's warnings travel with the outcome. */
export function preflightAndApply(run: Run, running: boolean): ApplyOutcome {
  const facts = preflightFacts(run, running);
  const verdict = preflight(facts);
  if (!verdict.ok) return refused(run, verdict.reason, verdict.paths);
  run.warnings.push(...verdict.warnings);
  if (run.art.capture.uncaptured.length > 0)
    run.ackPending = "applied without the work capture could not hold";
  return applyFresh(run, facts.head!);
}
