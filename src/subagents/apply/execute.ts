import { TandemError } from "../../errors.js";
import { crashPoint } from "../../testing/crash.js";
import { headOf, runAm } from "../shared/git.js";
import { ClaimRefused } from "./claims.js";
import { amFailed, blockedOutcome, complete, unstageNew, worktreeStage } from "./machine.js";
import type { ApplyPlan, ApplyStep } from "./plan.js";
import { applyKey, type Run, record, staged } from "./record.js";
import { type ApplyOutcome, outcome } from "./types.js";

/** Executes the step an apply plan decided (the dry run prints it instead: apply-dry-run.ts). */

/** Refusal outcome: nothing was changed. */
export function refused(run: Run, reason: string, paths: string[]): ApplyOutcome {
  return outcome(run.req, run.art.capture.id, {
    outcome: "refused",
    paths,
    warnings: run.warnings,
    message: reason,
  });
}

/** HEAD after a step that must have left one; a missing HEAD here means the target changed under us. */
function requireHead(top: string): string {
  const head = headOf(top);
  if (head === null)
    throw new TandemError(
      `the target ${top} lost its HEAD during the apply; inspect it (git status, git log).`,
    );
  return head;
}

const series = (run: Run) => ({ seriesBase: run.art.seriesBase, seriesBlob: run.art.seriesBlob });

/**
 * The commits (when `am`), then the uncommitted patch. Each marker is durable before the git
 * step it announces; the first one also claims the applied paths.
 */
function runStep(run: Run, step: Extract<ApplyStep, { kind: "run" }>): ApplyOutcome {
  let amHead = step.amHead;
  if (step.am) {
    const mbox = run.art.mboxFile;
    if (mbox === null) throw new TandemError("the capture's commit series is missing; capture again.");
    record(run, [staged(run, { stage: "am-started", fence: step.fence, ...series(run), amHead: null })]);
    crashPoint("apply:before-am");
    const r = runAm(run.top, mbox);
    crashPoint("apply:after-am");
    if (!r.ok) return amFailed(run, step.fence, r);
    amHead = requireHead(run.top);
    record(run, [staged(run, { stage: "commits-applied", fence: step.fence, ...series(run), amHead })]);
  } else if (step.recordLanding) {
    record(run, [staged(run, { stage: "commits-applied", fence: step.fence, ...series(run), amHead })]);
  }
  return worktreeStage(run, step.fence, amHead, step.patch ? run.art.patchFile : null, step.carried);
}

function stepOutcome(run: Run, step: ApplyStep): ApplyOutcome | null {
  switch (step.kind) {
    case "refuse":
      return refused(run, step.reason, step.paths);
    case "start-over":
      return null;
    case "nothing":
      return complete(run, step.head, [], false);
    case "run":
      return runStep(run, step);
    case "finish":
      record(run, []);
      unstageNew(run, step.row.stagedBefore);
      return complete(run, step.fence, [...step.row.preApply], true);
    case "blocked":
      if (step.record) {
        record(run, [
          { kind: "apply.blocked", data: { ...applyKey(run), paths: step.paths, message: step.reason } },
        ]);
      }
      return blockedOutcome(run, step.paths, step.reason);
    case "acknowledge":
      record(run, [
        {
          kind: "apply.acknowledged",
          data: { ...applyKey(run), what: "partial", detail: `resolved by hand at stage ${step.row.stage}` },
        },
      ]);
      unstageNew(run, step.row.stagedBefore);
      return complete(run, step.fence, [...step.row.preApply], run.art.patchFile !== null, true);
  }
}

/** Runs a plan; null for `start-over`. A claim refusal changes nothing and is reported as such. */
export function executePlan(run: Run, plan: ApplyPlan): ApplyOutcome | null {
  run.warnings.push(...plan.warnings);
  try {
    return stepOutcome(run, plan.step);
  } catch (err) {
    if (err instanceof ClaimRefused) return refused(run, err.message, []);
    throw err;
  }
}
