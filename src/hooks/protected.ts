/**
 * The facts of two gates (hooks/gates/tandem-state.ts, other-worktree.ts): what a tool call names
 * that is peers' work outside the claims — Tandem's own store, another worktree where live sessions
 * work (decision 0023).
 */
import { realpathSync, statSync } from "node:fs";
import { groupOf } from "../claims/holders.js";
import { peerOwned } from "../claims/peer-owned.js";
import type { Holder, RefusedTarget } from "../core/claims/decide.js";
import { stateRefusals } from "../core/guards/tandem-state.js";
import type { TargetFacts } from "../core/guards/target-plan.js";
import { type NamedTarget, type WorktreeFinding, worktreeFindings } from "../core/guards/worktree-peers.js";
import { isInside } from "../core/paths/lexical.js";
import { ownedWorktrees } from "../store/claims/rows.js";
import type { ToolTargets } from "../targets/tool-targets.js";
import { type HookCtx, selfSession } from "./context.js";

/** The store's own files a call names (decision 0023), each refused as it was named. */
export function stateRefused(ctx: HookCtx, facts: readonly TargetFacts[]): RefusedTarget[] {
  const named = namedTargets(facts);
  if (named.length === 0 || !ctx.root.repo) return [];
  return stateRefusals(named, statePlaces(ctx, ctx.root.repo.commonDir));
}

/** What a call names in other worktrees where live peers work (decision 0023). */
export function worktreeRefused(
  ctx: HookCtx,
  found: ToolTargets,
  facts: readonly TargetFacts[],
): WorktreeFinding[] {
  const named = namedTargets(facts);
  if (named.length === 0) return [];
  return worktreeFindings(named, otherOwners(ctx, named, found.shell), ctx.root.root);
}

/** Each resolved target, at its physical place and, when a symlink stands there, its lexical one. */
function namedTargets(facts: readonly TargetFacts[]): NamedTarget[] {
  return facts.flatMap((f) =>
    f.ok
      ? [{ raw: f.raw, physical: f.physical }, ...(f.lexical ? [{ raw: f.raw, physical: f.lexical }] : [])]
      : [],
  );
}

function statePlaces(ctx: HookCtx, commonDir: string) {
  return { store: physical(ctx.stateDir), commonDir: physical(commonDir) };
}

function physical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Peer-owned paths of the other worktrees a target can reach. Asked only when a target lies outside
 * the caller's root or is a directory (one that may hold a nested worktree): a plain write pays nothing.
 */
function otherOwners(
  ctx: HookCtx,
  named: readonly NamedTarget[],
  shell: boolean,
): Map<string, ReadonlyMap<string, Holder>> {
  const out = new Map<string, ReadonlyMap<string, Holder>>();
  const reaches = named.filter(
    (t) => !isInside(ctx.root.root, t.physical) || (shell && isDirectory(t.physical)),
  );
  if (reaches.length === 0) return out;
  const self = selfSession(ctx);
  for (const worktree of ownedWorktrees(ctx.db)) {
    if (worktree === ctx.root.root) continue;
    if (!reaches.some((t) => isInside(t.physical, worktree) || isInside(worktree, t.physical))) continue;
    out.set(
      worktree,
      peerOwned(ctx.db, {
        worktree,
        self: self?.id ?? "",
        group: self ? groupOf(ctx.db, self) : "",
        now: ctx.now,
        freshnessSeconds: ctx.config.freshnessSeconds,
      }),
    );
  }
  return out;
}

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}
