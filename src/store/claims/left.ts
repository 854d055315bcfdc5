/**
 * Queries behind left work (decision 0029): the owner marks of paths that a session no longer
 * live may have left, and the paths a session was already refused this turn.
 */
import type { OwnerMark } from "../../core/claims/left-work.js";
import { type Db, stmt } from "../db.js";

/** How a claim_history row holds its path; a settled one (release_reason 'left_*') reads as released. */
const HOLD = `CASE WHEN h.released_seq IS NULL THEN 'held'
  WHEN h.release_reason = 'session_end' THEN 'session_end' ELSE 'released' END`;

const SOME = "(? IS NULL OR path IN (SELECT value FROM json_each(?)))";

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
  return stmt(
    db,
    `WITH gone AS (SELECT id FROM sessions WHERE ended_seq IS NOT NULL OR last_seen < ?),
     cand AS (
       SELECT path FROM claim_history WHERE worktree = ? AND ${SOME}
          AND (released_seq IS NULL OR release_reason = 'session_end') AND session_id IN gone
       UNION SELECT path FROM touched WHERE worktree = ? AND ${SOME} AND unattributed = 0
          AND session_id IN gone)
     SELECT h.path, h.session_id AS session, h.last_seq AS seq, ${HOLD} AS hold
       FROM claim_history h WHERE h.worktree = ? AND h.path IN cand
     UNION ALL
     SELECT t.path, t.session_id, t.first_seq, 'touched' FROM touched t
      WHERE t.worktree = ? AND t.unattributed = 0 AND t.path IN cand`,
  ).all(quietSince, worktree, list, list, worktree, list, list, worktree, worktree) as OwnerMark[];
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
