/**
 * Left work at hooks (decision 0029): found and its bytes saved at a turn's edges and at session
 * start; a write over it refused once per turn; an ended session that calls a hook again (resumed)
 * gets its left work back as its own claims.
 */

import { findLeftWork, type LeftQuery } from "../claims/left-work.js";
import type { ClaimTarget } from "../core/claims/decide.js";
import { type LeftItem, leftToRefuse } from "../core/claims/left-work.js";
import { noticeLeft } from "../safety/left-keep.js";
import { blobsDirOf } from "../safety/preserve.js";
import { leftWarnedThisTurn } from "../store/claims/left.js";
import { append, write } from "../store/ledger/append.js";
import { sessionByNative } from "../store/sessions/rows.js";
import type { ToolTargets } from "../targets/tool-targets.js";
import { type HookCtx, hookSession } from "./context.js";
import { recordOpenFailure } from "./open-failure.js";

function query(ctx: HookCtx, extra: Partial<LeftQuery> = {}): LeftQuery {
  return {
    worktree: ctx.root.root,
    repoTop: ctx.root.repo?.top ?? null,
    now: ctx.now,
    freshnessSeconds: ctx.config.freshnessSeconds,
    ...extra,
  };
}

/** Finds left work (of `paths` only, when given) and saves the bytes not saved yet. */
export function noticeLeftWork(ctx: HookCtx, extra: Partial<LeftQuery> = {}): LeftItem[] {
  const self = sessionByNative(ctx.db, ctx.client.name, ctx.input.sessionId);
  return noticeLeft(ctx.db, query(ctx, extra), blobsDirOf(ctx.stateDir), self?.id ?? null);
}

/**
 * At every hook but session-end: a resumed session is live again with its left work claimed; at
 * a turn's edges, left work is found with the dirty set the hook already read. Observational.
 */
export async function leftWorkAtHook(ctx: HookCtx): Promise<void> {
  const kind = ctx.input.kind;
  if (kind === "session-end") return;
  try {
    resumeIfEnded(ctx);
    if (kind !== "prompt" && kind !== "stop") return;
    // A dirty set git could not give is the hook's own failure to report: nothing to add here.
    const snap = ctx.dirtyAhead ? await ctx.dirtyAhead.catch(() => null) : null;
    if (ctx.dirtyAhead && !snap) return;
    noticeLeftWork(ctx, { dirty: snap ? new Set(Object.keys(snap)) : null });
  } catch (err) {
    recordOpenFailure(ctx, "noticing left work", err);
  }
}

function resumeIfEnded(ctx: HookCtx): void {
  const self = sessionByNative(ctx.db, ctx.client.name, ctx.input.sessionId);
  if (!self || self.ended_seq === null) return;
  const mine = findLeftWork(ctx.db, query(ctx)).left.filter(
    (i) => i.owner.id === self.id && i.hold !== "held",
  );
  write(
    ctx.db,
    (tx) => {
      const now = hookSession(ctx, tx);
      if (now.ended_seq === null) return; // Another hook of it resumed it meanwhile.
      const base = { session: now.id, ts: ctx.now };
      append(tx, { ...base, kind: "session.resumed", data: { previousEnd: now.ended_seq } });
      const root = ctx.root.root;
      for (const i of mine)
        append(tx, {
          ...base,
          kind: "claim.acquired",
          data: { worktree: root, path: i.path, disposition: "git", root },
        });
    },
    "gating",
  );
}

/**
 * A write over left work: its bytes are saved first; refused the first time in a turn with whose
 * it is and what to do (the left-work gate words and records it). An opaque shell command may
 * change any file: all left work is saved.
 */
export function leftToRefuseNow(
  ctx: HookCtx,
  found: ToolTargets,
  targets: readonly ClaimTarget[],
): LeftItem[] {
  const root = ctx.root.root;
  const paths = [...new Set(targets.filter((t) => t.worktree === root).map((t) => t.path))];
  if (found.opaque) noticeLeftWork(ctx);
  if (paths.length === 0) return [];
  const self = sessionByNative(ctx.db, ctx.client.name, ctx.input.sessionId);
  const left = noticeLeftWork(ctx, { paths }).filter((i) => i.owner.id !== self?.id);
  if (left.length === 0) return [];
  return leftToRefuse(left, self ? leftWarnedThisTurn(ctx.db, self.id) : new Set());
}
