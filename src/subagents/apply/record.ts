import type { ClaimTarget } from "../../core/claims/decide.js";
import { TandemError } from "../../errors.js";
import { procInfo } from "../../sessions/proc.js";
import type { EventData, EventKind } from "../../store/events/schemas.js";
import { append, write } from "../../store/ledger/append.js";
import type { Artifact } from "../capture/artifact.js";
import type { SubCtx } from "../shared/ctx.js";
import { applyOf } from "../shared/records.js";
import { acquireApplyClaims } from "./claims.js";
import type { ApplyRequest } from "./types.js";

/** One apply in progress: what it applies where, and what it has recorded so far. */
export interface Run {
  ctx: SubCtx;
  req: ApplyRequest;
  art: Artifact;
  top: string;
  warnings: string[];
  /** An `--acknowledge-uncaptured` still to be recorded with the first state change. */
  ackPending: string | null;
  /** Paths to claim for the caller with the first state change, all or nothing. */
  claimPending: ClaimTarget[] | null;
  /** The row version this run decided on; a different one means another apply ran meanwhile. */
  seenSeq: number | null;
}

/** Another process recorded an apply of this sub-agent into this target after this one decided. */
export class ApplyRaceLost extends TandemError {}

/** This process, as apply events name it. */
export function thisProcess(): { pid: number; start: string | null } {
  return { pid: process.pid, start: procInfo(process.pid)?.start ?? null };
}

export function applyKey(run: Run): {
  id: string;
  captureId: string;
  target: string;
  by: { pid: number; start: string | null };
} {
  return { id: run.req.sub.id, captureId: run.art.capture.id, target: run.top, by: thisProcess() };
}

type Ev = { [K in EventKind]: { kind: K; data: EventData<K> } }[EventKind];

/**
 * Appends apply events in one transaction, durable before the caller goes on
 * to the git step they describe. The row must still be the version this run
 * decided on: two applies of one sub-agent into one target never interleave.
 * The first call also claims the applied paths (ClaimRefused leaves nothing behind).
 */
export function record(run: Run, events: Ev[]): void {
  const { db } = run.ctx;
  write(db, (tx) => {
    const row = applyOf(db, run.req.sub.id, run.top);
    if ((row?.updatedSeq ?? null) !== run.seenSeq) {
      throw new ApplyRaceLost(
        "another apply of this sub-agent into this target ran meanwhile; nothing more was done here. Run apply again to see where it stands.",
      );
    }
    if (run.claimPending !== null) acquireApplyClaims(tx, run.ctx, run.claimPending);
    for (const ev of events) append(tx, { kind: ev.kind, session: run.ctx.session, data: ev.data } as never);
    if (run.ackPending !== null) {
      append(tx, {
        kind: "apply.acknowledged",
        session: run.ctx.session,
        data: { ...applyKey(run), what: "uncaptured", detail: run.ackPending },
      });
    }
    run.seenSeq = applyOf(db, run.req.sub.id, run.top)?.updatedSeq ?? null;
  });
  // Only once the transaction is durable: a refused or lost one must try again next time.
  run.ackPending = null;
  run.claimPending = null;
}

export function staged(run: Run, data: Omit<EventData<"apply.staged">, "id" | "captureId" | "target">): Ev {
  return { kind: "apply.staged", data: { ...applyKey(run), ...data } };
}
