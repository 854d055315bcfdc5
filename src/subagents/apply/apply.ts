import { type Printer, spanned } from "../../core/printed.js";
import { processAlive } from "../../sessions/proc.js";
import { artifactFor, artifactOfRow } from "../capture/artifact.js";
import type { SubCtx } from "../shared/ctx.js";
import { short } from "../shared/ids.js";
import {
  type ApplyRecord,
  applyOf,
  type CaptureRecord,
  captureById,
  latestCapture,
  type SubRecord,
} from "../shared/records.js";
import { applyClaimTargets } from "./claims.js";
import { printPlan } from "./dry-run.js";
import { executePlan } from "./execute.js";
import { freshFacts, resumeFacts, resumeRow, touchedPaths } from "./facts.js";
import { type ApplyPlan, planFresh, planResume } from "./plan.js";
import { lostRace, otherWriter, raceOutcome } from "./race.js";
import { ApplyRaceLost, type Run } from "./record.js";
import { type ApplyOutcome, type ApplyRequest, outcome } from "./types.js";
import { verifyApplied } from "./verify.js";

/** The child still runs while its process (or the `sub run` waiting for it) is alive and no exit is recorded. */
export function subRunning(sub: SubRecord): boolean {
  if (sub.exited) return false;
  return processAlive(sub.childPid, sub.childStart) || processAlive(sub.runnerPid, sub.runnerStart);
}

function newRun(ctx: SubCtx, req: ApplyRequest, art: Run["art"], row: ApplyRecord | null): Run {
  return {
    ctx,
    req,
    art,
    top: req.target,
    warnings: [],
    ackPending: null,
    claimPending: applyClaimTargets(ctx, req.target, touchedPaths(art)),
    seenSeq: row?.updatedSeq ?? null,
  };
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
function finishedCapture(sub: SubRecord, capture: CaptureRecord | null, p: Printer): string | null {
  const again = spanned(p, "sub", "capture", sub.id);
  if (!capture) return `${sub.id} has no capture yet; run ${again}.`;
  if (sub.exitedSeq !== null && capture.recordedSeq < sub.exitedSeq) {
    return `the latest capture of ${sub.id} was taken while the child was still running; run ${again} first.`;
  }
  return null;
}

/** The plan is decided once; the dry run prints it, the real apply executes it. */
function carryOut(run: Run, plan: ApplyPlan): ApplyOutcome | null {
  return run.req.dryRun ? printPlan(run, plan) : executePlan(run, plan);
}

/** An interrupted apply continues from its marker; null when nothing landed (decide afresh). */
function resume(ctx: SubCtx, req: ApplyRequest, row: ApplyRecord, running: boolean): ApplyOutcome | null {
  const marker = resumeRow(row);
  if (marker === null) return null;
  const capture = captureById(ctx.db, row.captureId);
  if (capture === null) {
    return noCapture(
      req,
      `the interrupted apply's capture ${row.captureId} is not in the store; run ${spanned(ctx.printer, "sub", "capture", req.sub.id)} and apply again.`,
    );
  }
  const run = newRun(ctx, req, artifactOfRow(ctx, capture, row), row);
  return carryOut(run, planResume(resumeFacts(run, marker, running)));
}

function decideAndApply(ctx: SubCtx, req: ApplyRequest, row: ApplyRecord | null): ApplyOutcome {
  const running = subRunning(req.sub);
  if (row) {
    const resumed = resume(ctx, req, row, running);
    if (resumed) return resumed;
  }
  const latest = latestCapture(ctx.db, req.sub);
  if (running)
    return noCapture(req, "the child is still running; wait for it to end (or stop it), then apply.");
  const missing = finishedCapture(req.sub, latest, ctx.printer);
  if (missing !== null || latest === null) return noCapture(req, missing ?? "no capture");
  if (row?.stage === "completed" && row.captureId === latest.id) return alreadyApplied(req, row, latest);
  const run = newRun(ctx, req, artifactFor(ctx, latest, row), row);
  if (run.art.capture.uncaptured.length > 0)
    run.ackPending = "applied without the work capture could not hold";
  return carryOut(run, planFresh(freshFacts(run, running))) ?? noCapture(req, "nothing to start over from");
}

/**
 * `sub apply` (docs/product.md §7.3): continue an interrupted apply of this sub-agent
 * into this target from its marker, report an existing completion after
 * checking it still holds, or apply the latest capture fresh. A process that loses a
 * race with another apply of the same sub-agent into the same target says so.
 */
export function applySub(ctx: SubCtx, req: ApplyRequest): ApplyOutcome {
  const row = applyOf(ctx.db, req.sub.id, req.target);
  const busy = row ? otherWriter(ctx, row) : null;
  if (row && busy) return raceOutcome(req, row, busy, ctx.printer);
  let result: ApplyOutcome;
  try {
    result = decideAndApply(ctx, req, row);
  } catch (err) {
    if (!(err instanceof ApplyRaceLost)) throw err;
    return lostRace(ctx, req) ?? outcome(req, null, { outcome: "refused", message: err.message });
  }
  // A refusal or failure while another process applied (its am, its dirty files) is that process's doing.
  if (!result.ok && !req.dryRun) {
    const now = applyOf(ctx.db, req.sub.id, req.target);
    if (now && now.updatedSeq !== row?.updatedSeq) return lostRace(ctx, req) ?? result;
  }
  return result;
}
