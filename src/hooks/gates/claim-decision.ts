/**
 * The claims decision (docs/product.md §4.3): peers' clean files found with no lock held, then
 * read, decide and record in one write transaction: all targets acquired, or none and a denial.
 */
import { groupOf, loadHeld } from "../../claims/holders.js";
import type { ToolCall } from "../../clients/types.js";
import {
  type ClaimStamp,
  type CleanFact,
  claimKey,
  isClean,
  takeoverCandidates,
  withTrustedClean,
} from "../../core/claims/clean-takeover.js";
import {
  type ClaimDecision,
  type ClaimRequest,
  type ClaimTarget,
  decideClaims,
  type HeldClaim,
  type RefusedTarget,
} from "../../core/claims/decide.js";
import { inputDigest } from "../../core/digest.js";
import { foldRuleOfState } from "../../facts/fold-rule.js";
import { dirtyPaths } from "../../git/status.js";
import { claimStampRows } from "../../store/claims/reads.js";
import { append, readSnapshot, write } from "../../store/ledger/append.js";
import { crashPoint } from "../../testing/crash.js";
import { type HookCtx, hookSession, selfSession } from "../context.js";
import { gatherLineFacts, judgeByLines, type LineFacts } from "../line-claims.js";

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
function gatherCleanFacts(ctx: HookCtx, targets: readonly ClaimTarget[]): Map<string, CleanFact> {
  const facts = new Map<string, CleanFact>();
  if (targets.length === 0) return facts;
  const snapshot = readSnapshot(ctx.db, () => {
    const me = selfSession(ctx);
    const caller = me ? { id: me.id, group: groupOf(ctx.db, me) } : null;
    const held = loadHeld(ctx.db, ctx.now, ctx.config.freshnessSeconds);
    const candidates = takeoverCandidates(held, [...targets], caller, ctx.now);
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
  raws: readonly string[],
  decide: (session: string, group: string) => ClaimDecision,
): ClaimDecision {
  return write(
    ctx.db,
    (tx) => {
      const session = hookSession(ctx, tx);
      const decision = decide(session.id, groupOf(ctx.db, session));
      crashPoint("claim:after-check", ctx.req.env);
      const base = { session: session.id, ts: ctx.now };
      append(tx, {
        ...base,
        kind: "tool.requested",
        data: { tool: tool.name, toolUseId: tool.useId, targets: [...raws], ...inputDigest(tool.input) },
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
        append(tx, { ...base, kind: "claim.denied", data: { tool: tool.name, refused } });
        return decision;
      }
      for (const t of decision.takeovers) {
        append(tx, {
          ...base,
          kind: "claim.released",
          data: { worktree: t.worktree, path: t.path, reason: "stale_takeover", holder: t.holder.id },
        });
      }
      for (const t of decision.acquire) {
        append(tx, {
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

/** Decide the claims of `targets` (with the plan's refusals) and record the outcome. */
export function decideAndRecord(
  ctx: HookCtx,
  tool: ToolCall,
  raws: readonly string[],
  targets: readonly ClaimTarget[],
  refused: RefusedTarget[],
): ClaimDecision {
  const cleanFacts = gatherCleanFacts(ctx, targets);
  const lineFacts = gatherLineFacts(ctx, tool, targets, selfSession(ctx)?.id ?? null);
  return record(ctx, tool, raws, (caller, group) => {
    const loaded = loadHeld(ctx.db, ctx.now, ctx.config.freshnessSeconds);
    const held = cleanFacts.size > 0 ? withTrustedClean(loaded, claimStamps(ctx), cleanFacts) : loaded;
    const req: ClaimRequest = {
      caller: { id: caller, group },
      targets: [...targets],
      refused,
      held,
      now: ctx.now,
      fold: foldRuleOfState(ctx.stateDir),
    };
    const decision = decideClaims(req);
    return lineFacts.size === 0 ? decision : byLines(ctx, req, decision, lineFacts);
  });
}

/** A whole-file denial judged again by lines (decision 0061): shared files are written, never acquired. */
function byLines(
  ctx: HookCtx,
  req: ClaimRequest,
  decision: ClaimDecision,
  facts: ReadonlyMap<string, LineFacts>,
): ClaimDecision {
  const judged = judgeByLines(ctx, req.caller, decision, facts);
  if (!judged) return decision;
  if ("refused" in judged)
    return decision.allow
      ? { allow: false, refused: [], conflicts: [], lines: judged.refused }
      : { ...decision, lines: judged.refused };
  const shared = new Set(judged.shared.map(claimKey));
  const again = decideClaims({ ...req, held: req.held.filter((h) => !judged.shared.includes(h)) });
  if (!again.allow) return again;
  return { ...again, acquire: again.acquire.filter((t) => !shared.has(claimKey(t))) };
}
