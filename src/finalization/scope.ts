/**
 * The end-turn scope (docs/product.md §5.1): every path the session ever owned, re-classified now.
 * Ledger rows are evidence of what the session did, never authority over where Tandem looks:
 * a stored disposition or root is ignored and each path goes through the same classifier as a
 * pre-tool-use target.
 */

import type { CreatedStash } from "../core/finalization/verdict.js";
import { isNormal, isPlainKey, lexicalTarget } from "../core/paths/lexical.js";
import { classify, type ResolvedRoots, rootPaths } from "../core/paths/roots.js";
import type { TargetFacts } from "../core/paths/target.js";
import { resolveNormal, resolveTarget } from "../core/paths/target.js";
import { DirListings } from "../facts/dir-listing.js";
import { physicalResolver } from "../facts/physical.js";
import { fsTargetProbe } from "../facts/root-facts.js";
import { ownedLedgerPaths } from "../store/claims/reads.js";
import type { Db } from "../store/db.js";
import { hasSessionStart, stashEvents } from "../store/events/reads.js";
import { scopeByHunks } from "./line-scope.js";
import type { LedgerPath } from "./peer-paths.js";

export type { LedgerPath } from "./peer-paths.js";

export interface OwnedPaths {
  /** The ledger lacks the session's `session.started`, so its history may be partial. */
  incompleteHistory: boolean;
  owned: LedgerPath[];
}

/** Active claims ∪ every claim the session ever acquired ∪ paths its hooks recorded as touched. */
export function ownedPaths(
  db: Db,
  sessionId: string,
  freshnessSeconds: number,
  now = Date.now(),
): OwnedPaths {
  // `tandem gc` replaces an old session's events by one summary: its history is still whole.
  const started = hasSessionStart(db, sessionId);
  // In a file shared by lines, the session answers for its own hunks (decision 0061).
  return {
    incompleteHistory: !started,
    owned: scopeByHunks(db, sessionId, ownedLedgerPaths(db, sessionId), now, freshnessSeconds),
  };
}

/** Its `stash.created` events, or those a `session.compacted` summary kept of them. */
export function createdStashes(db: Db, sessionId: string): CreatedStash[] {
  return stashEvents(db, sessionId).flatMap((r) => {
    const data = r.data as CreatedStash | { stashes: CreatedStash[] };
    return r.kind === "session.compacted"
      ? (data as { stashes: CreatedStash[] }).stashes
      : [data as CreatedStash];
  });
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
