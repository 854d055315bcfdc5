import type { Db } from "../db.js";
import { stmt } from "../db.js";
import { raw } from "../handle.js";
import type { ClaimRow } from "./rows.js";

/** Reads of who owns which paths: active claims, claims ever taken, and paths touched by commands. */

/** A path as the ledger names it: relative to the worktree (coordination root) it was recorded under. */
export interface LedgerPath {
  worktree: string;
  path: string;
}

/** Active claims ∪ every claim the session ever acquired ∪ paths its hooks recorded as touched. */
export function ownedLedgerPaths(db: Db, session: string): LedgerPath[] {
  return stmt(
    db,
    `SELECT worktree, path FROM claims WHERE session_id = ?
     UNION SELECT worktree, path FROM claim_history WHERE session_id = ?
     UNION SELECT worktree, path FROM touched WHERE session_id = ? AND unattributed = 0
     ORDER BY worktree, path`,
  ).all(session, session, session) as LedgerPath[];
}

/** Paths under `worktree` the session ever claimed or touched itself (not the active claims). */
export function releasedOrTouched(db: Db, session: string, worktree: string): string[] {
  const rows = raw(db)
    .prepare(
      `SELECT path FROM claim_history WHERE session_id = ? AND worktree = ?
       UNION SELECT path FROM touched WHERE session_id = ? AND worktree = ? AND unattributed = 0`,
    )
    .all(session, worktree, session, worktree) as { path: string }[];
  return rows.map((r) => r.path);
}

/** Paths under `worktree` the session ever claimed. */
export function claimHistoryPaths(db: Db, session: string, worktree: string): string[] {
  const rows = stmt(db, "SELECT path FROM claim_history WHERE session_id = ? AND worktree = ?").all(
    session,
    worktree,
  ) as { path: string }[];
  return rows.map((r) => r.path);
}

/** Every worktree the session holds, held or touched anything under. */
export function sessionWorktrees(db: Db, session: string): string[] {
  const rows = raw(db)
    .prepare(
      `SELECT worktree FROM claims WHERE session_id = ? UNION SELECT worktree FROM claim_history
       WHERE session_id = ? UNION SELECT worktree FROM touched WHERE session_id = ?`,
    )
    .all(session, session, session) as { worktree: string }[];
  return rows.map((r) => r.worktree);
}

/** The paths the session holds now, in path order (across worktrees). */
export function heldPathNames(db: Db, session: string): string[] {
  const rows = stmt(db, "SELECT path FROM claims WHERE session_id = ? ORDER BY path").all(session) as {
    path: string;
  }[];
  return rows.map((r) => r.path);
}

/** Active claims per session id. */
export function claimCounts(db: Db): Map<string, number> {
  const rows = stmt(db, "SELECT session_id, count(*) AS n FROM claims GROUP BY session_id").all() as {
    session_id: string;
    n: number;
  }[];
  return new Map(rows.map((r) => [r.session_id, r.n]));
}

/** An active claim with when it was taken. */
export interface ClaimWithTs extends ClaimRow {
  acquired_ts: number;
}

export function claimsWithAcquiredTs(db: Db): ClaimWithTs[] {
  return stmt(
    db,
    `SELECT c.*, e.ts AS acquired_ts FROM claims c JOIN events e ON e.seq = c.acquired_seq ORDER BY c.worktree, c.path`,
  ).all() as ClaimWithTs[];
}

/** A claim's stamp: who holds it, since which event, and the holder's latest event. */
export interface ClaimStampRow {
  worktree: string;
  path: string;
  session_id: string;
  acquired_seq: number;
  last_seq: number;
}

/** Every claim's stamp, in one statement so they come from one snapshot. */
export function claimStampRows(db: Db): ClaimStampRow[] {
  return stmt(
    db,
    `SELECT c.worktree, c.path, c.session_id, c.acquired_seq, s.last_seq
       FROM claims c JOIN sessions s ON s.id = c.session_id`,
  ).all() as ClaimStampRow[];
}

export interface OwnerRow {
  path: string;
  session_id: string;
}

/**
 * Who claimed, then who touched, paths of `worktree` (only `paths` when given: a seek per path
 * instead of reading every row). Claims come first: a claim's holder is the one editing the file.
 */
export function ownerRows(db: Db, worktree: string, paths?: readonly string[]): OwnerRow[] {
  const claims = "SELECT path, session_id FROM claims WHERE worktree = ?";
  const touched = "SELECT path, session_id FROM touched WHERE worktree = ? AND unattributed = 0";
  if (!paths) return [...stmt(db, claims).all(worktree), ...stmt(db, touched).all(worktree)] as OwnerRow[];
  const one = (sql: string) => paths.flatMap((p) => stmt(db, `${sql} AND path = ?`).all(worktree, p));
  return [...one(claims), ...one(touched)] as OwnerRow[];
}
