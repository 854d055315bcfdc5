import { join } from "node:path";
import { groupOf, loadHeld } from "../../claims/holders.js";
import { type ClaimDecision, type ClaimTarget, decideClaims } from "../../core/claims/decide.js";
import { planTargets, type TargetFacts } from "../../core/guards/target-plan.js";
import { classify, resolveRoots, rootPaths } from "../../core/paths/roots.js";
import { resolveTarget } from "../../core/paths/target.js";
import { TandemError } from "../../errors.js";
import { foldRuleOfState } from "../../facts/fold-rule.js";
import { physicalResolver } from "../../facts/physical.js";
import { fsTargetProbe, gatherRootFacts } from "../../facts/root-facts.js";
import type { Db, WriteTx } from "../../store/db.js";
import { append } from "../../store/ledger/append.js";
import { sessionById } from "../../store/sessions/rows.js";
import type { SubCtx } from "../shared/ctx.js";

/**
 * What `sub apply` brings into a target is the applying session's own write (issue 12): its
 * paths are claimed for that session, all or nothing, with the hook's claim decision.
 */

/** A live peer outside the caller's group holds a path the apply brings; nothing was changed. */
export class ClaimRefused extends TandemError {}

/** The claim targets of repository paths brought into `top`; paths outside every root stay unclaimed. */
export function applyClaimTargets(ctx: SubCtx, top: string, paths: readonly string[]): ClaimTarget[] {
  if (ctx.session === null || paths.length === 0) return [];
  const roots = resolveRoots(gatherRootFacts(ctx.root, ctx.config.finalizationRoots));
  const within = rootPaths(roots);
  const physicalOf = physicalResolver();
  const facts: TargetFacts[] = paths.map((p) => {
    const raw = join(top, p);
    const r = resolveTarget(raw, top, within, {}, physicalOf);
    if (!r.ok) return { raw, ok: false, reason: r.reason };
    const t = r.target;
    return {
      raw,
      ok: true,
      physical: t.physical,
      lexical: t.lexical,
      escape: t.escape,
      classification: classify(t.physical, roots, fsTargetProbe),
    };
  });
  // Wiring has its own gate in apply (--allow-config); unverifiable paths are left unclaimed as before.
  return planTargets(facts, false, null).claim;
}

function refusal(d: Extract<ClaimDecision, { allow: false }>): string {
  const held = d.conflicts.map(
    (c) => `${c.target.path} (held by ${c.claim.holder.name} [${c.claim.holder.id}])`,
  );
  const bad = d.refused.map((r) => `${r.raw}: ${r.reason}`);
  return `the artifact brings paths another live session is editing: ${[...held, ...bad].join(", ")}; nothing was applied and nothing was claimed. Wait until that session commits them (or ask it to release them), then run apply again, or apply into another target.`;
}

/** The claim decision for `session` over `targets`, read inside the caller's transaction. */
export function decideApplyClaims(
  db: Db,
  ctx: SubCtx,
  targets: ClaimTarget[],
  now: number,
): ClaimDecision | null {
  if (ctx.session === null || targets.length === 0) return null;
  const me = sessionById(db, ctx.session);
  if (!me) return null;
  return decideClaims({
    caller: { id: me.id, group: groupOf(db, me) },
    targets,
    refused: [],
    held: loadHeld(db, now, ctx.config.freshnessSeconds),
    now,
    fold: foldRuleOfState(ctx.stateDir),
  });
}

/** Throws ClaimRefused when refused; the caller's transaction then leaves nothing behind. */
export function checkApplyClaims(
  db: Db,
  ctx: SubCtx,
  targets: ClaimTarget[],
  now: number,
): ClaimDecision | null {
  const d = decideApplyClaims(db, ctx, targets, now);
  if (d && !d.allow) throw new ClaimRefused(refusal(d));
  return d;
}

/** Inside the apply's first write transaction: claim every path, or throw ClaimRefused. */
export function acquireApplyClaims(db: WriteTx, ctx: SubCtx, targets: ClaimTarget[]): void {
  const now = Date.now();
  const d = checkApplyClaims(db, ctx, targets, now);
  if (!d?.allow || ctx.session === null) return;
  const base = { session: ctx.session, ts: now };
  for (const t of d.takeovers) {
    append(db, {
      ...base,
      kind: "claim.released",
      data: { worktree: t.worktree, path: t.path, reason: "stale_takeover", holder: t.holder.id },
    });
  }
  for (const t of d.acquire) {
    append(db, {
      ...base,
      kind: "claim.acquired",
      data: { worktree: t.worktree, path: t.path, disposition: t.disposition, root: t.root },
    });
  }
}
