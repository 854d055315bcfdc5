import { join } from "node:path";
import { linkedNames } from "../claims/hard-links.js";
import { groupOf, loadHeld } from "../claims/holders.js";
import { ALLOW, type ToolCall, type Verdict } from "../clients/types.js";
import {
  type ClaimStamp,
  type CleanFact,
  claimKey,
  isClean,
  takeoverCandidates,
  withTrustedClean,
} from "../core/claims/clean-takeover.js";
import { type ClaimDecision, type ClaimTarget, decideClaims, type HeldClaim } from "../core/claims/decide.js";
import { denialMessage } from "../core/claims/messages.js";
import { inputDigest } from "../core/digest.js";
import { gitGuardMessage } from "../core/guards/git-guard.js";
import { planTargets, type TargetFacts, type WiringGuard } from "../core/guards/target-plan.js";
import { ALLOW_WIRING_ENV, WIRING_RULE } from "../core/guards/wiring.js";
import { classify, type ResolvedRoots, resolveRoots, rootPaths } from "../core/paths/roots.js";
import { resolveTarget } from "../core/paths/target.js";
import { physicalResolver } from "../facts/physical.js";
import { fsTargetProbe, gatherRootFacts } from "../facts/root-facts.js";
import { dirtyPaths } from "../git/status.js";
import { remoteGate } from "../remote/gate.js";
import { syncSoon } from "../remote/sync-soon.js";
import { claimStampRows } from "../store/claims/reads.js";
import { dbFile } from "../store/db.js";
import { append, readSnapshot, write } from "../store/ledger/append.js";
import { verifyGateTables } from "../store/trust.js";
import { type ToolTargets, toolTargets } from "../targets/tool-targets.js";
import { crashPoint } from "../testing/crash.js";
import { agentCmd, type HookCtx, hookSession, selfSession } from "./context.js";
import { guardGitCalls } from "./git-guard.js";
import { identityVerdict } from "./identity-guard.js";
import { jailRewrite } from "./jail-rewrite.js";
import { leftGate } from "./left-work.js";
import { watchOwnedWork } from "./owner-watch.js";
import { refuseProtected } from "./protected.js";
import { protectShell } from "./shell-protect.js";
import { hookWiringFacts } from "./wiring-facts.js";

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
      lexical: r.target.lexical,
      escape: r.target.escape,
      classification: classify(r.target.physical, roots, fsTargetProbe),
    };
  });
}

/** The wiring facts only cost anything when a target resolved; the person's env decides the rest. */
function wiringGuard(ctx: HookCtx, facts: readonly TargetFacts[], found: ToolTargets): WiringGuard {
  const shell = found.shell;
  const allowed = ctx.req.env[ALLOW_WIRING_ENV] === "1";
  const paths = allowed
    ? []
    : facts.flatMap((f) => (f.ok ? [f.physical, ...(f.lexical ? [f.lexical] : [])] : []));
  // The serialized input holds the command however the client shaped it (string or argv).
  const command = shell ? JSON.stringify(ctx.input.tool?.input ?? null) : null;
  return {
    facts: hookWiringFacts(ctx, paths, physicalResolver()),
    allowed,
    command,
    commands: found.wiringCommands,
  };
}

/** Every claim's stamp, read in one snapshot: who holds it, since which event, and the holder's latest. */
function claimStamps(ctx: HookCtx): Map<string, ClaimStamp> {
  const out = new Map<string, ClaimStamp>();
  for (const r of claimStampRows(ctx.db))
    out.set(claimKey(r), { holder: r.session_id, acquiredSeq: r.acquired_seq, holderSeq: r.last_seq });
  return out;
}

/**
 * Before the write lock: which peers' claims blocking this call are on clean
 * files. Reads one snapshot of the claims, then runs `git status` for the
 * candidates only (none for most calls) with no lock held.
 */
function gatherCleanFacts(ctx: HookCtx, targets: ClaimTarget[]): Map<string, CleanFact> {
  const facts = new Map<string, CleanFact>();
  if (targets.length === 0) return facts;
  const snapshot = readSnapshot(ctx.db, () => {
    const me = selfSession(ctx);
    const caller = me ? { id: me.id, group: groupOf(ctx.db, me) } : null;
    const held = loadHeld(ctx.db, ctx.now, ctx.config.freshnessSeconds);
    const candidates = takeoverCandidates(held, targets, caller, ctx.now);
    return { candidates, stamps: candidates.length > 0 ? claimStamps(ctx) : new Map() };
  });
  const byWorktree = new Map<string, HeldClaim[]>();
  for (const c of snapshot.candidates) byWorktree.set(c.worktree, [...(byWorktree.get(c.worktree) ?? []), c]);
  for (const [worktree, claims] of byWorktree) {
    let dirty: string[];
    try {
      dirty = [
        ...dirtyPaths(
          worktree,
          claims.map((c) => c.path),
        ),
      ];
    } catch {
      continue; // Unknown cleanliness never takes a claim over.
    }
    for (const c of claims) {
      const stamp = snapshot.stamps.get(claimKey(c));
      if (stamp) facts.set(claimKey(c), { ...stamp, clean: isClean(c.path, dirty) });
    }
  }
  return facts;
}

function record(
  ctx: HookCtx,
  tool: ToolCall,
  raws: string[],
  decide: (session: string, group: string) => ClaimDecision,
): ClaimDecision {
  return write(
    ctx.db,
    () => {
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
          ...decision.conflicts.map((c) => ({
            path: c.target.raw,
            reason: "held",
            holder: c.claim.holder.id,
          })),
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
    },
    "gating",
  );
}

/** docs/product.md §4.3: find every target, resolve them all, then acquire all or none in one transaction. */
export async function onPreTool(ctx: HookCtx): Promise<Verdict> {
  const tool = ctx.input.tool;
  if (!tool) return ALLOW;
  // First: a change behind an owner's back is recorded before the safety net copies it as a peer's.
  watchOwnedWork(ctx);
  const cwd = tool.cwd ?? ctx.input.cwd ?? ctx.root.root;
  const found = await toolTargets(tool, { cwd, env: ctx.req.env, home: ctx.req.env.HOME || undefined });
  const facts = targetFacts(found.raws, cwd, hookRoots(ctx), ctx.req.env);
  const plan = planTargets(facts, ctx.config.requireGitFinalization, wiringGuard(ctx, facts, found));
  // A gate decides from the claims table: check its structure first (a few pages).
  if (found.raws.length > 0 || found.shell) verifyGateTables(ctx.db, dbFile(ctx.stateDir));
  const early = refuseCommand(ctx, tool, found, facts);
  if (early) return early;
  const remote = remoteGate(
    ctx,
    plan.claim.map((t) => join(t.worktree, t.path)),
  );
  if (!remote.allow) {
    recordRefusal(ctx, tool, found.raws, [
      { path: found.raws.join(" "), reason: "remote-held", holder: null },
    ]);
    return { allow: false, rule: "remote-claim", reason: remote.reason };
  }
  const left = leftGate(ctx, tool, found, plan.claim);
  if (left) return left;
  // A file with other names (a hard link anyone made) is written under each of them: judge them all.
  const links = linkedNames(ctx.db, plan.claim, selfSession(ctx), ctx.now, ctx.config.freshnessSeconds);
  const targets = links.length > 0 ? [...plan.claim, ...links] : plan.claim;
  const cleanFacts = gatherCleanFacts(ctx, targets);
  const decision = record(ctx, tool, found.raws, (caller, group) => {
    const loaded = loadHeld(ctx.db, ctx.now, ctx.config.freshnessSeconds);
    const held = cleanFacts.size > 0 ? withTrustedClean(loaded, claimStamps(ctx), cleanFacts) : loaded;
    return decideClaims({
      caller: { id: caller, group },
      targets,
      refused: plan.refused,
      held,
      now: ctx.now,
    });
  });
  if (!decision.allow) {
    const wiring = decision.refused.some((r) => r.rule === WIRING_RULE);
    return {
      allow: false,
      rule: wiring ? WIRING_RULE : "claim-conflict",
      reason: denialMessage(decision, ctx.now),
    };
  }
  if (found.shell) await protectShell(ctx, tool, found, plan.claim);
  if (decision.acquire.length > 0) syncSoon(ctx, true);
  return jailRewrite(ctx, tool, remote.warning ? { ...ALLOW, context: remote.warning } : ALLOW);
}

/**
 * Refusals decided before any claim: forged hook calls, another session's identity, Tandem's own
 * state and other worktrees (hooks/protected.ts), then git's impact.
 */
function refuseCommand(
  ctx: HookCtx,
  tool: ToolCall,
  found: ToolTargets,
  facts: readonly TargetFacts[],
): Verdict | null {
  if (found.tandemHook) {
    recordRefusal(ctx, tool, found.raws, [{ path: "tandem hook", reason: "hook-call", holder: null }]);
    return {
      allow: false,
      rule: "hook-call",
      reason: `Tandem refused this command before it ran: it calls \`tandem hook\` (or \`tandem git-hook\`), which only an agent client runs; from a shell it would speak for a session it is not. Use \`${agentCmd(ctx)} status\`, \`${agentCmd(ctx)} task\` or \`${agentCmd(ctx)} release PATH\` for your own session.`,
    };
  }
  const identity = found.shell ? identityVerdict(ctx, tool) : null;
  if (identity) {
    recordRefusal(ctx, tool, found.raws, [
      { path: identity.variable, reason: "identity", holder: identity.holder },
    ]);
    return { allow: false, rule: identity.rule, reason: identity.reason };
  }
  const named = refuseProtected(ctx, found, facts);
  if (named) {
    recordRefusal(ctx, tool, found.raws, named.refused);
    return named.verdict;
  }
  const guard = guardGitCalls(ctx, found.gitCalls);
  if (guard.findings.length === 0) return null;
  recordRefusal(
    ctx,
    tool,
    found.raws,
    guard.findings.map((f) => ({ path: f.path, reason: `git-${f.effect}`, holder: f.holder.id })),
  );
  return { allow: false, rule: "git-impact", reason: gitGuardMessage(guard.findings, ctx.now) };
}

function recordRefusal(
  ctx: HookCtx,
  tool: ToolCall,
  raws: string[],
  refused: { path: string; reason: string; holder: string | null }[],
): void {
  write(
    ctx.db,
    () => {
      const session = hookSession(ctx);
      const base = { session: session.id, ts: ctx.now };
      append(ctx.db, {
        ...base,
        kind: "tool.requested",
        data: { tool: tool.name, toolUseId: tool.useId, targets: raws, ...inputDigest(tool.input) },
      });
      append(ctx.db, { ...base, kind: "claim.denied", data: { tool: tool.name, refused } });
    },
    "gating",
  );
}
