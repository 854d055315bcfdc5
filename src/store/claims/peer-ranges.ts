import type { Db } from "../db.js";
import { stmt } from "../db.js";
import type { LedgerPath } from "./reads.js";

/** Where peers' paths are recorded, each indexed by (worktree, path), and which rows count. */
const SOURCES = {
  claims: "t.session_id != ?",
  claim_history: "t.session_id != ?",
  touched: "t.session_id != ? AND t.unattributed = 0",
} as const;

export type LedgerTable = keyof typeof SOURCES;
export const LEDGER_TABLES = Object.keys(SOURCES) as LedgerTable[];

/** Distinct worktrees of a table, one index seek each (a loose scan of its (worktree, path) index). */
export function worktreesOf(db: Db, table: LedgerTable): string[] {
  const rows = stmt(
    db,
    `WITH RECURSIVE w(x) AS (SELECT min(worktree) FROM ${table}
       UNION ALL SELECT (SELECT min(worktree) FROM ${table} WHERE worktree > w.x) FROM w WHERE w.x IS NOT NULL)
     SELECT x FROM w WHERE x IS NOT NULL`,
  ).all() as { x: string }[];
  return rows.map((r) => r.x);
}

/**
 * Peers' rows of `table` under each [worktree, key prefix] range ("" is the whole worktree).
 * One statement for every range: the loop over ranges runs inside SQLite, each an index seek.
 */
export function peerRowsIn(
  db: Db,
  table: LedgerTable,
  ranges: readonly [string, string][],
  self: string,
): LedgerPath[] {
  return stmt(
    db,
    `WITH r(wt, lo, hi) AS (
       SELECT value ->> 0, CASE WHEN value ->> 1 = '' THEN '' ELSE (value ->> 1) || '/' END,
              CASE WHEN value ->> 1 = '' THEN char(1114111) ELSE (value ->> 1) || '0' END
       FROM json_each(?))
     SELECT t.worktree, t.path FROM r JOIN ${table} t ON t.worktree = r.wt AND t.path > r.lo AND t.path < r.hi
     WHERE ${SOURCES[table]}`,
  ).all(JSON.stringify(ranges), self) as LedgerPath[];
}
