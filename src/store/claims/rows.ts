import type { Db } from "../db.js";
import { stmt } from "../db.js";
import type { ClaimRow } from "../schema/claims.js";

export type { ClaimRow };

/** The `claims` table: its row, and each session's or every claim in path order. */

export function claimsOf(db: Db, sessionId: string): ClaimRow[] {
  return stmt(db, "SELECT * FROM claims WHERE session_id = ? ORDER BY worktree, path").all(
    sessionId,
  ) as ClaimRow[];
}

/** Where each of the session's claims is, and nothing else: a status of 1,000 claims reads only these. */
export function claimedPaths(db: Db, sessionId: string): Pick<ClaimRow, "worktree" | "path">[] {
  return stmt(db, "SELECT worktree, path FROM claims WHERE session_id = ? ORDER BY worktree, path").all(
    sessionId,
  ) as Pick<ClaimRow, "worktree" | "path">[];
}

export function allClaims(db: Db): ClaimRow[] {
  return stmt(db, "SELECT * FROM claims ORDER BY worktree, path").all() as ClaimRow[];
}

/** Every worktree where some session claimed or touched a path (the places peers' work can be). */
export function ownedWorktrees(db: Db): Set<string> {
  const rows = stmt(
    db,
    "SELECT DISTINCT worktree FROM claims UNION SELECT DISTINCT worktree FROM touched WHERE unattributed = 0",
  ).all() as { worktree: string }[];
  return new Set(rows.map((r) => r.worktree));
}

/** The path's holder and when it took the claim (0 when that event is gone), or null when nobody holds it. */
export function holdingOfPath(
  db: Db,
  worktree: string,
  path: string,
): { session: string; since: number } | null {
  const row = stmt(
    db,
    `SELECT c.session_id AS session, coalesce(e.ts, 0) AS since FROM claims c
       LEFT JOIN events e ON e.seq = c.acquired_seq WHERE c.worktree = ? AND c.path = ?`,
  ).get(worktree, path) as { session: string; since: number } | undefined;
  return row ?? null;
}

/** The session holding the claim on exactly this path, or null. */
export function holderOfPath(db: Db, worktree: string, path: string): string | null {
  const row = stmt(db, "SELECT session_id FROM claims WHERE worktree = ? AND path = ?").get(worktree, path) as
    | { session_id: string }
    | undefined;
  return row?.session_id ?? null;
}
