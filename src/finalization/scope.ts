/**
 * The end-turn scope (docs/product.md §5.1): every path the session ever owned, re-classified now.
 * Ledger rows are evidence of what the session did, never authority over where Tandem looks:
 * a stored disposition or root is ignored and each path goes through the same classifier as a
 * pre-tool-use target.
 */

import type { CreatedStash } from "../core/finalization.js";
import { isNormal, isPlainKey, lexicalTarget } from "../core/paths.js";
import { classify, type ResolvedRoots, rootPaths } from "../core/roots.js";
import { resolveNormal, resolveTarget } from "../core/target-path.js";
import type { TargetFacts } from "../core/target-plan.js";
import { DirListings } from "../facts/dir-listing.js";
import { physicalResolver } from "../facts/physical.js";
import { fsTargetProbe } from "../facts/root-facts.js";
import type { Db } from "../store/db.js";

/** A path as the ledger keys it: the root it was classified under, and the path relative to it. */
export interface LedgerPath {
  worktree: string;
  path: string;
}

export interface OwnedScope {
  /** The ledger lacks the session's `session.started`, so its history may be partial. */
  incompleteHistory: boolean;
  owned: LedgerPath[];
  /** Absolute paths other sessions own (claimed, ever claimed, or touched). */
  peers: string[];
  /** Stash entries the session's shell commands created (`stash.created`). */
  createdStashes: CreatedStash[];
}

/** Active claims ∪ every claim the session ever acquired ∪ paths its hooks recorded as touched. */
export function ownedScope(db: Db, sessionId: string): OwnedScope {
  const started = db
    .prepare("SELECT 1 FROM events WHERE session_id = ? AND kind = 'session.started' LIMIT 1")
    .get(sessionId);
  const owned = db
    .prepare(
      `SELECT worktree, path FROM claims WHERE session_id = ?
       UNION SELECT worktree, path FROM claim_history WHERE session_id = ?
       UNION SELECT worktree, path FROM touched WHERE session_id = ? AND unattributed = 0
       ORDER BY worktree, path`,
    )
    .all(sessionId, sessionId, sessionId) as LedgerPath[];
  return {
    incompleteHistory: started === undefined,
    owned,
    peers: peerPaths(db, sessionId),
    createdStashes: createdStashes(db, sessionId),
  };
}

function createdStashes(db: Db, sessionId: string): CreatedStash[] {
  const rows = db
    .prepare("SELECT data FROM events WHERE session_id = ? AND kind = 'stash.created' ORDER BY seq")
    .all(sessionId) as { data: string }[];
  return rows.map((r) => JSON.parse(r.data) as CreatedStash);
}

function peerPaths(db: Db, sessionId: string): string[] {
  const rows = db
    .prepare(
      `SELECT worktree, path FROM claims WHERE session_id != ?
       UNION SELECT worktree, path FROM claim_history WHERE session_id != ?
       UNION SELECT worktree, path FROM touched WHERE session_id != ? AND unattributed = 0`,
    )
    .all(sessionId, sessionId, sessionId) as LedgerPath[];
  const out = new Set<string>();
  // A peer row that does not even parse excuses nothing: dropping it can only fail this session.
  for (const r of rows) {
    const abs = absolute(r);
    if (abs !== null) out.add(abs);
  }
  return [...out];
}

/** The lexical absolute path a ledger row names; null for a row whose root is not absolute. */
function absolute(r: LedgerPath): string | null {
  if (!r.worktree.startsWith("/")) return null;
  const lex = lexicalTarget(r.path, r.worktree);
  return lex.ok ? lex.path : null;
}

/**
 * Resolves and classifies each owned path against the roots as configured now. Only the
 * filesystem is consulted here (realpath, lstat); no git runs for any path.
 */
export function classifyScope(
  owned: readonly LedgerPath[],
  roots: ResolvedRoots,
  listings = new DirListings(),
): TargetFacts[] {
  const paths = rootPaths(roots);
  const seen = new Set<string>();
  const out: TargetFacts[] = [];
  const physicalOf = physicalResolver(listings);
  for (const row of owned) {
    // A root that is not absolute cannot be placed anywhere: it is refused, never guessed.
    if (!row.worktree.startsWith("/")) {
      out.push({
        raw: describe(row),
        ok: false,
        reason: `the ledger records it under ${JSON.stringify(row.worktree)}, which is not an absolute path`,
      });
      continue;
    }
    const r =
      isNormal(row.worktree) && isPlainKey(row.path)
        ? resolveNormal(
            row.path,
            `${row.worktree === "/" ? "" : row.worktree}/${row.path}`,
            paths,
            physicalOf,
          )
        : resolveTarget(row.path, row.worktree, paths, {}, physicalOf);
    if (!r.ok) {
      out.push({ raw: describe(row), ok: false, reason: r.reason });
      continue;
    }
    const t = r.target;
    const key = `${t.lexical}\0${t.physical}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const classification = classify(t.physical, roots, fsTargetProbe);
    // The lexical path is what describe() would have computed, already at hand.
    out.push({ raw: t.lexical, ok: true, physical: t.physical, escape: t.escape, classification });
  }
  return out;
}

function describe(row: LedgerPath): string {
  const lex = row.worktree.startsWith("/") ? lexicalTarget(row.path, row.worktree) : null;
  return lex?.ok ? lex.path : `${row.worktree}:${row.path}`;
}
