/**
 * Queries behind left work (decision 0029): the owner marks of paths that a session no longer
 * live may have left, and the paths a session was already refused this turn.
 */
import type { OwnerMark } from "../../core/claims/left-work.js";
import { type Db, stmt } from "../db.js";

/** How a claim_history row holds its path; a settled one (release_reason 'left_*') reads as released. */
const HOLD = `CASE WHEN h.released_seq IS NULL THEN 'held'
  WHEN h.release_reason = 'session_end' THEN 'session_end' ELSE 'released' END`;

const some = (alias: string) => `(? IS NULL OR ${alias}.path IN (SELECT value FROM json_each(?)))`;
const SOME_C = some("c");
const SOME_T = some("t");

/**
 * Every mark on the paths of `worktree` where a session not seen since `quietSince` (or ended)
 * still holds a claim, released it only by ending, or touched it: the candidates for left work,
 * with every other session's marks on them too, to find the newest owner. `paths`: only these.
 */
export function leftCandidateMarks(
  db: Db,
  worktree: string,
  quietSince: number,
  paths: readonly string[] | null,
): OwnerMark[] {
  const list = paths ? JSON.stringify(paths) : null;
  // Driven by this worktree's open rows (claim_history_open, touched_by_path), each owner looked up
  // by key: the cost follows what is still open here, not how many sessions ever ended.
  return stmt(
    db,
    `WITH cand AS (
       SELECT c.path FROM claim_history c JOIN sessions s ON s.id = c.session_id
        WHERE c.worktree = ? AND (c.released_seq IS NULL OR c.release_reason = 'session_end')
          AND (s.ended_seq IS NOT NULL OR s.last_seen < ?) AND ${SOME_C}
       UNION SELECT t.path FROM touched t JOIN sessions s ON s.id = t.session_id
        WHERE t.worktree = ? AND t.unattributed = 0
          AND (s.ended_seq IS NOT NULL OR s.last_seen < ?) AND ${SOME_T})
     SELECT h.path, h.session_id AS session, h.last_seq AS seq, ${HOLD} AS hold
       FROM claim_history h WHERE h.worktree = ? AND h.path IN cand
     UNION ALL
     SELECT t.path, t.session_id, t.first_seq, 'touched' FROM touched t
      WHERE t.worktree = ? AND t.unattributed = 0 AND t.path IN cand`,
  ).all(
    worktree,
    quietSince,
    list,
    list,
    worktree,
    quietSince,
    list,
    list,
    worktree,
    worktree,
  ) as OwnerMark[];
}

/** The paths a `claim.denied` for left work named to `session` since its newest prompt. */
export function leftWarnedThisTurn(db: Db, session: string): Set<string> {
  const rows = stmt(
    db,
    `SELECT data FROM events WHERE session_id = ? AND kind = 'claim.denied'
       AND seq > coalesce((SELECT max(seq) FROM events WHERE session_id = ? AND kind = 'prompt.submitted'), 0)`,
  ).all(session, session) as { data: string }[];
  const out = new Set<string>();
  for (const r of rows) {
    const d = JSON.parse(r.data) as { refused: { path: string; reason: string }[] };
    for (const x of d.refused) if (x.reason === "left-work") out.add(x.path);
  }
  return out;
}
