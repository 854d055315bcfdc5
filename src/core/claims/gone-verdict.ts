/**
 * One verdict per file of a session that is gone (issue 38): a file it left dirty is left work
 * (adopt, recover or discard; decision 0029), and only its other claims are stale claims (release
 * with `--force`). `status`, `doctor`, `watch` and the board all list what this says, so a file is
 * never under two headings with two fixes.
 */
import type { LeftItem } from "./left-work.js";

/** A held claim: whose, and where (the worktree it was taken in and its key there). */
export interface ClaimRef {
  session: string;
  worktree: string;
  path: string;
}

/** The facts about a session a verdict needs. */
export interface SessionRef {
  id: string;
  live: boolean;
  ended: boolean;
}

/** A gone session still holding claims that are not left work, and how many. */
export interface StaleHolder<S extends SessionRef> {
  session: S;
  claims: number;
}

/** Left work is found for one worktree (`root`): its keys are relative to it. */
function leftKeys(left: readonly LeftItem[]): Set<string> {
  return new Set(left.map((i) => i.path));
}

/**
 * Whether a claim is listed as a claim: a live holder's always (it blocks); a gone holder's only
 * when its file is not left work, which lists it instead.
 */
export function listedAsClaim(
  c: ClaimRef,
  holderLive: boolean,
  left: readonly LeftItem[],
  root: string,
): boolean {
  return holderLive || c.worktree !== root || !leftKeys(left).has(c.path);
}

/**
 * Gone sessions (neither live nor ended) with claims left over once their left work is taken out:
 * those, and only those, are "stale, still holding claims". Claims of unknown sessions are
 * not counted.
 */
export function staleHolders<S extends SessionRef>(
  sessions: readonly S[],
  claims: readonly ClaimRef[],
  left: readonly LeftItem[],
  root: string,
): StaleHolder<S>[] {
  const keys = leftKeys(left);
  const counts = new Map<string, number>();
  for (const c of claims) {
    if (c.worktree === root && keys.has(c.path)) continue;
    counts.set(c.session, (counts.get(c.session) ?? 0) + 1);
  }
  return sessions
    .filter((s) => !s.live && !s.ended && (counts.get(s.id) ?? 0) > 0)
    .map((s) => ({ session: s, claims: counts.get(s.id)! }));
}
