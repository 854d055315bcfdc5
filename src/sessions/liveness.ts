import type { LivenessFacts } from "../core/sessions/liveness.js";
import type { SessionRow } from "../store/sessions/rows.js";
import { processAlive } from "./proc.js";

/** The process facts of a session row, read now (a few /proc reads; none for an ended session). */
export function livenessFacts(row: SessionRow): LivenessFacts {
  const ended = row.ended_seq !== null;
  const known = (pid: number | null, start: string | null) =>
    pid && !ended ? processAlive(pid, start) : null;
  return {
    lastSeen: row.last_seen,
    ended,
    processAlive: known(row.agent_pid, row.agent_pid_start),
    uiAlive: known(row.ui_pid, row.ui_pid_start),
  };
}
