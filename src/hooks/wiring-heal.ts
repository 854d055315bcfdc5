import { ALLOW, type HookKind, type Verdict } from "../clients/types.js";
import type { WriteTx } from "../store/db.js";
import { listEvents } from "../store/events/list.js";
import type { StoredEvent } from "../store/events/stored.js";
import { append, write } from "../store/ledger/append.js";
import { type SessionRow, sessionById } from "../store/sessions/rows.js";
import { healWiring } from "../wiring/heal.js";
import { healNotice } from "../wiring/heal-notice.js";
import { displayPath } from "../wiring/report.js";
import type { HookCtx } from "./context.js";
import { agentCmd, selfSession } from "./context.js";
import { recordOpenFailure } from "./open-failure.js";

/**
 * Every hook, before its own work: puts back Tandem's wiring entries if anything but init/deinit
 * changed them (docs/decisions/0024). Observational: a failure is recorded and the hook goes on.
 */
export function healWiringOf(ctx: HookCtx): void {
  try {
    healWiring(ctx.db, ctx.stateDir, {
      via: "hook",
      foundBy: () => selfSession(ctx)?.id ?? null,
    });
  } catch (err) {
    recordOpenFailure(ctx, "checking Tandem's wiring failed", err);
  }
}

/** Hooks whose answer may carry text for the model; Stop's and SessionEnd's never reach it. */
const TELLING: ReadonlySet<HookKind> = new Set(["session-start", "prompt", "pre-tool", "post-tool"]);
const PROBE = "tandem-context-probe";

/**
 * Whether this answer's context reaches the model, asked of the client's own renderer: a client
 * that drops it on this event (Cursor's prompts, say) is told at a later hook instead.
 */
function carriesContext(ctx: HookCtx): boolean {
  if (!TELLING.has(ctx.input.kind)) return false;
  return ctx.client.render(ctx.input.kind, ctx.wired, { ...ALLOW, context: PROBE }).stdout.includes(PROBE);
}

interface Restored {
  root: string;
  file: string;
  changes: string[];
  lastCommandBy: string | null;
  changedAt: number | null;
  byTandem?: boolean;
}

/**
 * Heals since the session started that it was not told of: two reads by the event-kind index, the
 * second only once a heal happened in its lifetime.
 */
function untoldHeals(ctx: HookCtx, self: SessionRow): StoredEvent[] {
  const heals = listEvents(ctx.db, { kind: "wiring.restored", sinceSeq: self.started_seq });
  if (heals.length === 0) return [];
  const told = listEvents(ctx.db, { kind: "wiring.noticed", sinceSeq: heals[0]!.seq })
    .filter((e) => e.session === self.id)
    .reduce((upTo, e) => Math.max(upTo, (e.data as { upToSeq: number }).upToSeq), 0);
  return heals.filter((h) => h.seq > told);
}

/** Inside the write transaction, so concurrent hooks of one session tell each heal once. */
function takeHealNotice(ctx: HookCtx, tx: WriteTx, self: SessionRow): string | null {
  const heals = untoldHeals(ctx, self);
  if (heals.length === 0) return null;
  append(tx, {
    kind: "wiring.noticed",
    session: self.id,
    ts: ctx.now,
    data: { upToSeq: heals[heals.length - 1]!.seq },
  });
  const seen = heals.map((e) => {
    const d = e.data as Restored;
    const by = d.lastCommandBy;
    return {
      file: displayPath(d.root, d.file),
      changes: d.changes,
      changedAt: d.changedAt,
      lastCommandBy: by === null ? null : (sessionById(ctx.db, by)?.name ?? by),
      lastCommandYours: by === self.id,
      byTandem: d.byTandem === true,
    };
  });
  return healNotice(seen, `${agentCmd(ctx)} deinit`);
}

/**
 * After the hook's own work: a session whose wiring was healed since it started is told once, in
 * this answer, what was changed back and what to do instead (docs/decisions/0046). Observational:
 * a failure is recorded and the answer goes out as it was.
 */
export function withHealNotice(ctx: HookCtx, verdict: Verdict): Verdict {
  if (!verdict.allow || verdict.block || !carriesContext(ctx)) return verdict;
  try {
    const self = selfSession(ctx);
    if (!self || untoldHeals(ctx, self).length === 0) return verdict;
    const notice = write(ctx.db, (tx) => takeHealNotice(ctx, tx, self), "gating");
    if (notice === null) return verdict;
    return { ...verdict, context: verdict.context ? `${notice}\n\n${verdict.context}` : notice };
  } catch (err) {
    recordOpenFailure(ctx, "telling of a wiring heal failed", err);
    return verdict;
  }
}
