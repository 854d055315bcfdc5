import { processAlive } from "../sessions/proc.js";
import { dryFresh, dryResume } from "./apply-dry-run.js";
import { preflightAndApply } from "./apply-fresh.js";
import type { Run } from "./apply-record.js";
import { resumeApply } from "./apply-resume.js";
import { type ApplyOutcome, type ApplyRequest, outcome } from "./apply-types.js";
import { verifyApplied } from "./apply-verify.js";
import { artifactFor, artifactOfRow } from "./artifact.js";
import type { SubCtx } from "./ctx.js";
import { short } from "./ids.js";
import {
  type ApplyRecord,
  applyOf,
  type CaptureRecord,
  captureById,
  latestCapture,
  type SubRecord,
} from "./records.js";

const IN_PROGRESS = new Set(["am-started", "commits-applied", "worktree-started", "blocked"]);

/** The child still runs while its process (or the `sub run` waiting for it) is alive and no exit is recorded. */
export function subRunning(sub: SubRecord): boolean {
  if (sub.exited) return false;
  return processAlive(sub.childPid, sub.childStart) || processAlive(sub.runnerPid, sub.runnerStart);
}

function newRun(ctx: SubCtx, req: ApplyRequest, art: Run["art"], row: ApplyRecord | null): Run {
  return { ctx, req, art, top: req.target, warnings: [], ackPending: null, seenSeq: row?.updatedSeq ?? null };
}

function noCapture(req: ApplyRequest, message: string): ApplyOutcome {
  return outcome(req, null, { outcome: "refused", message });
}

function alreadyApplied(req: ApplyRequest, row: ApplyRecord, capture: CaptureRecord): ApplyOutcome {
  const check = verifyApplied(req.target, row);
  if (!check.ok) {
    return outcome(req, capture.id, {
      outcome: "failed",
      paths: check.paths,
      message: `capture ${capture.number} of ${req.sub.id} is recorded as applied here, but ${check.reason}. Tandem will not apply it twice on its own: inspect the target (git log, git status) and restore the work by hand if it is needed.`,
    });
  }
  return outcome(req, capture.id, {
    outcome: "already-applied",
    postHead: row.postHead,
    message: `already applied: capture ${capture.number} of ${req.sub.id} is in this target (applied at HEAD ${short(row.postHead)}).`,
  });
}

/** A capture that holds the child's finished work: taken after the child ended (when its end is known). */
function finishedCapture(sub: SubRecord, capture: CaptureRecord | null): string | null {
  if (!capture) return `${sub.id} has no capture yet; run \`tandem sub capture ${sub.id}\`.`;
  if (sub.exitedSeq !== null && capture.recordedSeq < sub.exitedSeq) {
    return `the latest capture of ${sub.id} was taken while the child was still running; run \`tandem sub capture ${sub.id}\` first.`;
  }
  return null;
}

/**
 * `sub apply` (docs/product.md §7.3): continue an interrupted apply of this sub-agent
 * into this target from its marker, report an existing completion after
 * checking it still holds, or apply the latest capture fresh.
 */
export function applySub(ctx: SubCtx, req: ApplyRequest): ApplyOutcome {
  const running = subRunning(req.sub);
  const row = applyOf(ctx.db, req.sub.id, req.target);
  if (row && IN_PROGRESS.has(row.stage)) {
    const capture = captureById(ctx.db, row.captureId)!;
    const run = newRun(ctx, req, artifactOfRow(ctx, capture, row), row);
    const resumed = req.dryRun ? dryResume(run, row, running) : resumeApply(run, row, running);
    if (resumed) return resumed;
  }
  const latest = latestCapture(ctx.db, req.sub);
  if (running)
    return noCapture(req, "the child is still running; wait for it to end (or stop it), then apply.");
  const missing = finishedCapture(req.sub, latest);
  if (missing !== null || latest === null) return noCapture(req, missing ?? "no capture");
  if (row?.stage === "completed" && row.captureId === latest.id) return alreadyApplied(req, row, latest);
  const run = newRun(ctx, req, artifactFor(ctx, latest, row), row);
  return req.dryRun ? dryFresh(run, running) : preflightAndApply(run, running);
}
