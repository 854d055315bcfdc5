import { type Printer, spanned } from "../../core/printed.js";
import { processAlive } from "../../sessions/proc.js";
import { applyWriter } from "../../store/subagents/rows.js";
import type { SubCtx } from "../shared/ctx.js";
import { short } from "../shared/ids.js";
import { type ApplyRecord, applyOf } from "../shared/records.js";
import { type ApplyOutcome, type ApplyRequest, outcome } from "./types.js";

/**
 * Several `sub apply` processes of one sub-agent into one target: one wins, the others say
 * exactly what happened instead of what they saw of the winner's half-done work (issue 12).
 */

export interface Writer {
  pid: number;
  start: string | null;
  ts: number;
}

const IN_PROGRESS: ReadonlySet<string> = new Set(["am-started", "commits-applied", "worktree-started"]);

/** The process that wrote the row's latest event, when the event names one. */
export function writerOf(ctx: SubCtx, row: ApplyRecord): Writer | null {
  return applyWriter(ctx.db, row);
}

/** Another live process that is in the middle of this apply right now. */
export function otherWriter(ctx: SubCtx, row: ApplyRecord): Writer | null {
  if (!IN_PROGRESS.has(row.stage)) return null;
  const w = writerOf(ctx, row);
  if (!w || w.pid === process.pid || !processAlive(w.pid, w.start)) return null;
  return w;
}

export function raceOutcome(req: ApplyRequest, row: ApplyRecord, w: Writer, p: Printer): ApplyOutcome {
  const show = spanned(p, "sub", "show", req.sub.id);
  if (row.stage === "completed") {
    return outcome(req, row.captureId, {
      outcome: "refused",
      postHead: row.postHead,
      message: `applied by another process (pid ${w.pid}, at ${new Date(w.ts).toISOString()}): the work of ${req.sub.id} is in this target at HEAD ${short(row.postHead)}; nothing was done here and nothing was claimed. Run ${show} to see it.`,
    });
  }
  if (!IN_PROGRESS.has(row.stage)) {
    return outcome(req, row.captureId, {
      outcome: "refused",
      message: `another process (pid ${w.pid}, at ${new Date(w.ts).toISOString()}) applied ${req.sub.id} into this target meanwhile and left it ${row.stage}${row.message ? ` (${row.message})` : ""}; nothing was done here and nothing was claimed. Run ${show}, then apply again.`,
    });
  }
  return outcome(req, row.captureId, {
    outcome: "refused",
    message: `in progress in another process (pid ${w.pid}): it is applying ${req.sub.id} into this target now (stage ${row.stage}); nothing was done here and nothing was claimed. Wait for it to end, then run apply again to see where it stands.`,
  });
}

/** After this process lost: who won, from the row as it is now; null when the last writer is this process. */
export function lostRace(ctx: SubCtx, req: ApplyRequest): ApplyOutcome | null {
  const row = applyOf(ctx.db, req.sub.id, req.target);
  const w = row ? writerOf(ctx, row) : null;
  if (!row || !w || w.pid === process.pid) return null;
  return raceOutcome(req, row, w, ctx.printer);
}
