/**
 * The claim decision (docs/product.md §4.3 steps 4–5): pure over plain data, so every
 * rule is tested with tables and the hook only gathers facts and records results.
 */
import { type FoldRule, foldPath, NO_FOLD } from "../paths/fold.js";
import type { LineRefusal } from "./line-claim.js";

export interface ClaimKey {
  worktree: string;
  path: string;
}

/** A target that resolved to a root: it can be claimed. */
export interface ClaimTarget extends ClaimKey {
  raw: string;
  disposition: "git" | "output";
  root: string;
  /**
   * Set on another name of a file the tool named (a hard link, core/claims/hard-links.ts): the
   * named path. Judged against the claims like the named one, never acquired: the named one is.
   */
  linkOf?: string;
}

/** A target refused before any claim was considered (outside the roots, symlink escape, invalid root…). */
export interface RefusedTarget {
  raw: string;
  rule: string;
  reason: string;
}

export interface Holder {
  id: string;
  name: string;
  client: string;
  task: string | null;
  lastSeen: number;
  live: boolean;
  /** The top of its parent chain: a parent and its sub-agents are one group. */
  group: string;
}

export interface HeldClaim extends ClaimKey {
  holder: Holder;
  acquiredAt: number;
  /** The file is committed and clean now; null when unknown. */
  clean: boolean | null;
}

export interface ClaimRequest {
  caller: { id: string; group: string };
  targets: ClaimTarget[];
  refused: RefusedTarget[];
  held: HeldClaim[];
  now: number;
  /** How the repository's filesystem compares names (core/paths/fold.ts); exact when absent. */
  fold?: FoldRule;
}

export interface Conflict {
  target: ClaimTarget;
  claim: HeldClaim;
}

export type ClaimDecision =
  | { allow: true; acquire: ClaimTarget[]; takeovers: HeldClaim[] }
  | { allow: false; refused: RefusedTarget[]; conflicts: Conflict[]; lines?: LineRefusal[] };

/** A clean file may still be about to be written by its holder; only older claims are taken over. */
export const CLEAN_TAKEOVER_GRACE_MS = 60_000;

/** The key a claim is compared by: worktree and path folded as the filesystem folds names. */
function keyOf(k: ClaimKey, fold: FoldRule): ClaimKey {
  return fold === NO_FOLD ? k : { worktree: foldPath(k.worktree, fold), path: foldPath(k.path, fold) };
}

const keyText = (k: ClaimKey): string => `${k.worktree}\0${k.path}`;

function keysOverlap(a: ClaimKey, b: ClaimKey): boolean {
  if (a.worktree !== b.worktree) return false;
  if (a.path === b.path || a.path === "." || b.path === ".") return true;
  return a.path.startsWith(`${b.path}/`) || b.path.startsWith(`${a.path}/`);
}

/** Same worktree, and the same path or one a directory of the other, names compared under `fold`. */
export function overlaps(a: ClaimKey, b: ClaimKey, fold: FoldRule = NO_FOLD): boolean {
  return keysOverlap(keyOf(a, fold), keyOf(b, fold));
}

type Judgement = "mine" | "takeover" | "conflict";

function judge(claim: HeldClaim, req: ClaimRequest): Judgement {
  if (claim.holder.id === req.caller.id || claim.holder.group === req.caller.group) return "mine";
  if (!claim.holder.live) return "takeover";
  if (claim.clean === true && req.now - claim.acquiredAt >= CLEAN_TAKEOVER_GRACE_MS) return "takeover";
  return "conflict";
}

/** All or nothing: any refused target or live conflict refuses the whole tool call. */
export function decideClaims(req: ClaimRequest): ClaimDecision {
  const fold = req.fold ?? NO_FOLD;
  // Folded once each: a decision compares every target with every held claim.
  const held = req.held.map((claim) => ({ claim, key: keyOf(claim, fold) }));
  const seen = new Set<string>();
  const targets = req.targets
    .map((target) => ({ target, key: keyOf(target, fold) }))
    .filter(({ key }) => !seen.has(keyText(key)) && seen.add(keyText(key)));
  const conflicts: Conflict[] = [];
  const takeovers = new Map<string, HeldClaim>();
  for (const { target, key } of targets) {
    for (const h of held.filter((x) => keysOverlap(x.key, key))) {
      const j = judge(h.claim, req);
      if (j === "conflict") conflicts.push({ target, claim: h.claim });
      if (j === "takeover") takeovers.set(keyText(h.key), h.claim);
    }
  }
  if (conflicts.length > 0 || req.refused.length > 0)
    return { allow: false, refused: req.refused, conflicts };
  const mine = new Set(held.filter((h) => h.claim.holder.id === req.caller.id).map((h) => keyText(h.key)));
  return {
    allow: true,
    acquire: targets
      .filter(({ target, key }) => target.linkOf === undefined && !mine.has(keyText(key)))
      .map(({ target }) => target),
    takeovers: [...takeovers.values()],
  };
}
