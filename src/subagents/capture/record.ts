import { append, write } from "../../store/ledger/append.js";
import { crashPoint } from "../../testing/crash.js";
import { type SubCtx, scratchDirOf } from "../shared/ctx.js";
import { newCaptureId } from "../shared/ids.js";
import { appliesOf, type CaptureRecord, captureById, type SubRecord } from "../shared/records.js";
import { captureWorktree } from "./capture.js";
import { targetSeries } from "./series.js";

/** Targets that completed an apply of this sub-agent, with the child commit each holds since. */
function appliedBases(ctx: SubCtx, sub: SubRecord) {
  return appliesOf(ctx.db, sub.id)
    .filter((a) => a.appliedChildHead !== null)
    .map((a) => ({ target: a.target, appliedChildHead: a.appliedChildHead! }));
}

/**
 * Captures the child's worktree and records the artifact (docs/product.md §7.2). The
 * record is appended only after every blob it names is durable; it supersedes
 * earlier captures, a failed one too (as work not captured).
 */
export async function recordCapture(ctx: SubCtx, sub: SubRecord): Promise<CaptureRecord> {
  const result = await captureWorktree({
    worktree: sub.worktree,
    base: sub.base,
    blobsDir: ctx.blobsDir,
    maxDirtyBytes: ctx.config.maxDirtyBytes,
    maxPatchBytes: ctx.config.maxPatchBytes,
    tmpDir: scratchDirOf(ctx),
    crashAt: (point) => crashPoint(point),
  });
  const series = await targetSeries(
    sub.worktree,
    ctx.blobsDir,
    sub.base,
    result.head,
    appliedBases(ctx, sub),
  );
  crashPoint("capture:before-record");
  const captureId = newCaptureId();
  write(ctx.db, (tx) =>
    append(tx, {
      kind: "capture.recorded",
      session: ctx.session,
      data: {
        id: sub.id,
        captureId,
        ok: result.ok,
        base: result.base,
        head: result.head,
        commitCount: result.commitCount,
        mboxBlob: result.mboxBlob,
        mboxBytes: result.mboxBytes,
        patchBlob: result.patchBlob,
        patchBytes: result.patchBytes,
        hadUncommittedChanges: result.hadUncommittedChanges,
        dirtyPaths: result.dirtyPaths,
        patchPaths: result.patchPaths,
        uncaptured: result.uncaptured,
        series,
        inProgress: result.inProgress,
        conflictMarkers: result.conflictMarkers,
      },
    }),
  );
  return captureById(ctx.db, captureId)!;
}
