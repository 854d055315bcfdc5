import { type Printer, spanned } from "../../core/printed.js";
import { formatAge } from "../../core/sessions/liveness.js";
import type { SessionView } from "../../sessions/view.js";

function state(s: SessionView): string {
  if (s.ended) return "ended";
  return s.live ? "live" : "stale";
}

/** A fixed-column table of sessions; an empty list says how sessions appear. */
export function formatSessions(sessions: SessionView[], now: number, p: Printer): string {
  if (sessions.length === 0) {
    return `No sessions. Sessions appear when an agent with Tandem's hooks starts (see ${spanned(p, "init")}).\n`;
  }
  const header = `${"NAME".padEnd(20)} ${"CLIENT".padEnd(11)} ${"KIND".padEnd(8)} ${"STATE".padEnd(6)} ${"ACTIVITY".padEnd(11)} ${"CLAIMS".padStart(6)} ${"SEEN".padStart(5)}  TASK`;
  const rows = sessions.map(
    (s) =>
      `${s.name.padEnd(20)} ${s.client.padEnd(11)} ${s.kind.padEnd(8)} ${state(s).padEnd(6)} ${s.activity.padEnd(11)} ${String(s.claims).padStart(6)} ${formatAge(now - s.lastSeen).padStart(5)}  ${s.task ?? "-"}`,
  );
  return `${[header, ...rows].join("\n")}\n`;
}
