/**
 * The claim decision (docs/product.md §4.3 steps 4–5): pure over plain data, so every
 * rule is tested with tables and the hook only gathers facts and records results.
 */

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
}

export interface Conflict {
  target: ClaimTarget;
  claim: HeldClaim;
}

export type ClaimDecision =
  | { allow: true; acquire: ClaimTarget[]; takeovers: HeldClaim[] }
  | { allow: false; refused: RefusedTarget[]; conflicts: Conflict[] };

/** A clean file may still be about to be written by its holder; only older claims are taken over. */
export const CLEAN_TAKEOVER_GRACE_MS = 60_000;

/** Same worktree, and the same path or one a directory of the other. */
export function overlaps(a: ClaimKey, b: ClaimKey): boolean {
  if (a.worktree !== b.worktree) return false;
  if (a.path === b.path || a.path === "." || b.path === ".") return true;
  return a.path.startsWith(`${b.path}/`) || b.path.startsWith(`${a.path}/`);
}

type Judgement = "mine" | "takeover" | "conflict";

function judge(claim: HeldClaim, req: ClaimRequest): Judgement {
  if (claim.holder.id === req.caller.id || claim.holder.group === req.caller.group) return "mine";
  if (!claim.holder.live) return "takeover";
  if (claim.clean === true && req.now - claim.acquiredAt >= CLEAN_TAKEOVER_GRACE_MS) return "takeover";
  return "conflict";
}

function dedupe(targets: ClaimTarget[]): ClaimTarget[] {
  const seen = new Set<string>();
  return targets.filter((t) => {
    const k = `${t.worktree}\0${t.path}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** All or nothing: any refused target or live conflict refuses the whole tool call. */
export function decideClaims(req: ClaimRequest): ClaimDecision {
  const targets = dedupe(req.targets);
  const conflicts: Conflict[] = [];
  const takeovers = new Map<string, HeldClaim>();
  for (const target of targets) {
    for (const claim of req.held.filter((c) => overlaps(c, target))) {
      const j = judge(claim, req);
      if (j === "conflict") conflicts.push({ target, claim });
      if (j === "takeover") takeovers.set(`${claim.worktree}\0${claim.path}`, claim);
    }
  }
  if (conflicts.length > 0 || req.refused.length > 0)
    return { allow: false, refused: req.refused, conflicts };
  const mine = new Set(
    req.held.filter((c) => c.holder.id === req.caller.id).map((c) => `${c.worktree}\0${c.path}`),
  );
  return {
    allow: true,
    acquire: targets.filter((t) => t.linkOf === undefined && !mine.has(`${t.worktree}\0${t.path}`)),
    takeovers: [...takeovers.values()],
  };
}
