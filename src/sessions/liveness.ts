import { clientByName } from "../clients/index.js";
import type { LivenessFacts } from "../core/sessions/liveness.js";
import type { SessionRow } from "../store/sessions/rows.js";
import { commandLine, processAlive } from "./proc.js";
import { isDaemon } from "./ui.js";

/** The process facts of a session row, read now (a few /proc reads; none for an ended session). */
export function livenessFacts(row: SessionRow): LivenessFacts {
  const ended = row.ended_seq !== null;
  const known = (pid: number | null, start: string | null) =>
    pid && !ended ? processAlive(pid, start) : null;
  const agent = known(row.agent_pid, row.agent_pid_start);
  return {
    lastSeen: row.last_seen,
    ended,
    processAlive: agent && sharedDaemon(row) ? null : agent,
    uiAlive: known(row.ui_pid, row.ui_pid_start),
  };
}

/**
 * A session recorded under its client's shared daemon (Codex's app-server, Cline's hub) with no UI
 * found: the daemon outlives every person, so its running says nothing about this one.
 */
function sharedDaemon(row: SessionRow): boolean {
  if (row.ui_pid || !row.agent_pid) return false;
  const rule = clientByName(row.client)?.ui;
  const args = rule?.kind === "agent" && rule.daemonArgs.length > 0 ? commandLine(row.agent_pid) : null;
  return args !== null && rule !== undefined && isDaemon(rule, args);
}
