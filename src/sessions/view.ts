import { isLive } from "../core/sessions/liveness.js";
import { claimCounts } from "../store/claims/reads.js";
import type { Db } from "../store/db.js";
import { allSessions, currentSessions, type SessionRow } from "../store/sessions/rows.js";
import { livenessFacts } from "./liveness.js";

export interface SessionView {
  id: string;
  name: string;
  client: string;
  nativeId: string;
  kind: "session" | "subagent";
  parentId: string | null;
  task: string | null;
  activity: string;
  live: boolean;
  ended: boolean;
  lastSeen: number;
  claims: number;
  /** The agent's process, when known (the guard in force reads whether it is jailed). */
  agentPid?: number | null;
}

export function toView(row: SessionRow, claims: number, now: number, freshnessSeconds: number): SessionView {
  const ended = row.ended_seq !== null;
  return {
    id: row.id,
    name: row.name,
    client: row.client,
    nativeId: row.native_id,
    kind: row.kind,
    parentId: row.parent_id,
    task: row.task,
    activity: row.activity,
    live: isLive(livenessFacts(row), now, freshnessSeconds),
    ended,
    lastSeen: row.last_seen,
    claims,
    agentPid: row.agent_pid,
  };
}

/** How long an ended session stays among the current ones (the board shows the last hour of them). */
export const RECENT_ENDED_MS = 86_400_000;

/**
 * Sessions with their liveness judged now and their active claim counts: the open ones and
 * those ended within RECENT_ENDED_MS, or with `all` every session ever recorded. Only `all`
 * grows with history.
 */
export function sessionViews(
  db: Db,
  freshnessSeconds: number,
  now = Date.now(),
  scope: { all?: boolean } = {},
): SessionView[] {
  const counts = claimCounts(db);
  const rows = scope.all ? allSessions(db) : currentSessions(db, now - RECENT_ENDED_MS);
  return rows.map((row) => toView(row, counts.get(row.id) ?? 0, now, freshnessSeconds));
}
