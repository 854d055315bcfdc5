/**
 * The peers' paths an end-turn check needs, read by key instead of by scanning every claim
 * ever taken. A peer path only ever changes a verdict when it lies strictly inside one of the
 * session's own paths (core/finalization/owned.ts `isMine`: the closest owner wins, and the
 * session wins ties), so only those are read: one index range per owned path and peer worktree.
 */
import { dirname } from "node:path/posix";
import { lexicalTarget } from "../core/paths/lexical.js";
import { LEDGER_TABLES, peerRowsIn, worktreesOf } from "../store/claims/peer-ranges.js";
import type { LedgerPath } from "../store/claims/reads.js";
import type { Db } from "../store/db.js";

export type { LedgerPath } from "../store/claims/reads.js";

/** The lexical absolute path a ledger row names; null for a row whose root is not absolute. */
export function absolute(r: LedgerPath): string | null {
  if (!r.worktree.startsWith("/")) return null;
  const lex = lexicalTarget(r.path, r.worktree);
  return lex.ok ? lex.path : null;
}

/** `inner` is `outer` or below it. */
const within = (inner: string, outer: string) =>
  inner === outer || inner.startsWith(outer === "/" ? "/" : `${outer}/`);

/** The key prefix under `worktree` that holds everything strictly inside `abs`; "" is all of it. */
function prefixIn(abs: string, worktree: string): string | null {
  if (within(worktree, abs)) return "";
  if (!within(abs, worktree)) return null;
  return abs.slice(worktree === "/" ? 1 : worktree.length + 1);
}

/**
 * The owned rows at or above one of `contested` (absolute paths whose owner the verdict asks
 * about): a peer's path can only decide such a question from inside one of these.
 */
export function ownedAbove(owned: readonly LedgerPath[], contested: readonly string[]): LedgerPath[] {
  if (contested.length === 0) return [];
  const above = new Set<string>();
  for (const c of contested) {
    // A path already there brought its ancestors with it.
    for (let p = c; !above.has(p); p = dirname(p)) {
      above.add(p);
      if (p === "/") break;
    }
  }
  return owned.filter((r) => {
    const abs = absolute(r);
    return abs !== null && above.has(abs);
  });
}

/** Absolute paths other sessions own (claimed, ever claimed, or touched) strictly inside `owned`. */
export function peerPathsWithin(db: Db, sessionId: string, owned: readonly LedgerPath[]): string[] {
  const mine = [...new Set(owned.map(absolute).filter((p): p is string => p !== null))];
  const out = new Set<string>();
  if (mine.length === 0) return [];
  for (const table of LEDGER_TABLES) {
    const ranges: [string, string][] = [];
    for (const wt of worktreesOf(db, table)) {
      for (const abs of mine) {
        const prefix = prefixIn(abs, wt);
        if (prefix !== null) ranges.push([wt, prefix]);
      }
    }
    if (ranges.length === 0) continue;
    const rows = peerRowsIn(db, table, ranges, sessionId);
    // A peer row that does not even parse excuses nothing: dropping it can only fail this session.
    for (const r of rows) {
      const abs = absolute(r);
      if (abs !== null && mine.some((m) => abs !== m && within(abs, m))) out.add(abs);
    }
  }
  return [...out];
}
