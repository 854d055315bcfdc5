import { groupOf, loadHeld } from "../claims/holders.js";
import { ALLOW, type ToolCall, type Verdict } from "../clients/types.js";
import { denialMessage } from "../core/claim-messages.js";
import {
  CLEAN_TAKEOVER_GRACE_MS,
  type ClaimDecision,
  type ClaimTarget,
  decideClaims,
  type HeldClaim,
  overlaps,
} from "../core/claims.js";
import { digest } from "../core/digest.js";
import { physicalResolver } from "../core/physical.js";
import { fsTargetProbe, gatherRootFacts } from "../core/root-facts.js";
import { classify, type ResolvedRoots, resolveRoots, rootPaths } from "../core/roots.js";
import { resolveTarget } from "../core/target-path.js";
import { planTargets, type TargetFacts } from "../core/target-plan.js";
import { dirtyPaths } from "../git/status.js";
import { append, write } from "../store/ledger.js";
import { toolTargets } from "../targets/tool-targets.js";
import { crashPoint } from "../testing/crash.js";
import { type HookCtx, hookSession } from "./context.js";
import { saveShellSnapshot } from "./shell-delta.js";

export function hookRoots(ctx: HookCtx): ResolvedRoots {
  return resolveRoots(
    gatherRootFacts(ctx.root.root, ctx.config.finalizationRoots, ctx.root.repo?.top ?? null),
  );
}

function targetFacts(
  raws: readonly string[],
  cwd: string,
  roots: ResolvedRoots,
  env: HookCtx["req"]["env"],
): TargetFacts[] {
  const paths = rootPaths(roots);
  const wslDistro = env.WSL_DISTRO_NAME || undefined;
  const physicalOf = physicalResolver();
  return raws.map((raw) => {
    const r = resolveTarget(raw, cwd, paths, wslDistro ? { wslDistro } : {}, physicalOf);
    if (!r.ok) return { raw, ok: false, reason: r.reason };
    return {
      raw,
      ok: true,
      physical: r.target.physical,
      escape: r.target.escape,
      classification: classify(r.target.physical, roots, fsTargetProbe),
    };
  });
}

function inputDigest(input: unknown): { inputBytes: number; inputDigest: string } {
  const text = typeof input === "string" ? input : JSON.stringify(input ?? null);
  return { inputBytes: Buffer.byteLength(text), inputDigest: digest(text) };
}

/**
 * Marks peers' claims on committed, clean files, so they can be taken over. Only
 * claims that would block this call and are past the grace period cost a git call.
 */
function markClean(
  held: HeldClaim[],
  targets: ClaimTarget[],
  caller: { id: string; group: string },
  now: number,
): void {
  const candidates = held.filter(
    (c) =>
      c.holder.id !== caller.id &&
      c.holder.group !== caller.group &&
      c.holder.live &&
      now - c.acquiredAt >= CLEAN_TAKEOVER_GRACE_MS &&
      targets.some((t) => overlaps(c, t)),
  );
  const byWorktree = new Map<string, HeldClaim[]>();
  for (const c of candidates) byWorktree.set(c.worktree, [...(byWorktree.get(c.worktree) ?? []), c]);
  for (const [worktree, claims] of byWorktree) {
    try {
      const dirty = [
        ...dirtyPaths(
          worktree,
          claims.map((c) => c.path),
        ),
      ];
      for (const c of claims)
        c.clean = c.path !== "." && !dirty.some((d) => d === c.path || d.startsWith(`${c.path}/`));
    } catch {
      // Unknown cleanliness never takes a claim over.
    }
  }
}

function record(
  ctx: HookCtx,
  tool: ToolCall,
  raws: string[],
  decide: (session: string, group: string) => ClaimDecision,
): ClaimDecision {
  return write(ctx.db, () => {
    const session = hookSession(ctx);
    const decision = decide(session.id, groupOf(ctx.db, session));
    crashPoint("claim:after-check", ctx.req.env);
    const base = { session: session.id, ts: ctx.now };
    append(ctx.db, {
      ...base,
      kind: "tool.requested",
      data: { tool: tool.name, toolUseId: tool.useId, targets: raws, ...inputDigest(tool.input) },
    });
    if (!decision.allow) {
      const refused = [
        ...decision.conflicts.map((c) => ({ path: c.target.raw, reason: "held", holder: c.claim.holder.id })),
        ...decision.refused.map((r) => ({ path: r.raw, reason: r.rule, holder: null })),
      ];
      append(ctx.db, { ...base, kind: "claim.denied", data: { tool: tool.name, refused } });
      return decision;
    }
    for (const t of decision.takeovers) {
      append(ctx.db, {
        ...base,
        kind: "claim.released",
        data: { worktree: t.worktree, path: t.path, reason: "stale_takeover", holder: t.holder.id },
      });
    }
    for (const t of decision.acquire) {
      append(ctx.db, {
        ...base,
        kind: "claim.acquired",
        data: { worktree: t.worktree, path: t.path, disposition: t.disposition, root: t.root },
      });
    }
    return decision;
  });
}

/** PRODUCT §4.3: find every target, resolve them all, then acquire all or none in one transaction. */
export async function onPreTool(ctx: HookCtx): Promise<Verdict> {
  const tool = ctx.input.tool;
  if (!tool) return ALLOW;
  const cwd = ctx.input.cwd ?? ctx.root.root;
  const found = await toolTargets(tool, { cwd });
  const plan = planTargets(
    targetFacts(found.raws, cwd, hookRoots(ctx), ctx.req.env),
    ctx.config.requireGitFinalization,
  );
  const decision = record(ctx, tool, found.raws, (caller, group) => {
    const held = loadHeld(ctx.db, ctx.now, ctx.config.freshnessSeconds);
    markClean(held, plan.claim, { id: caller, group }, ctx.now);
    return decideClaims({
      caller: { id: caller, group },
      targets: plan.claim,
      refused: plan.refused,
      held,
      now: ctx.now,
    });
  });
  if (!decision.allow)
    return { allow: false, rule: "claim-conflict", reason: denialMessage(decision, ctx.now) };
  if (found.shell) saveShellSnapshot(ctx, tool);
  return ALLOW;
}
