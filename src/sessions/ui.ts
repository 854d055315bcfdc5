import type { ClientSpec } from "../clients/types.js";
import { allPids, commandLine, type ProcInfo, processCwd, procInfo } from "./proc.js";

/**
 * The process the person sees for a session, when Tandem can tell it, so liveness notices them
 * leaving (docs/clients.md §2.6). Claude: `CLAUDE_PID`, its own UI. Codex: the agent process
 * itself, unless that is the shared app-server daemon, which outlives the UI; then the one Codex
 * UI working in the session's directory. Null when unknown or ambiguous (two UIs there).
 */
export function uiProcess(
  client: ClientSpec,
  agent: ProcInfo | null,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string | null,
): ProcInfo | null {
  if (client.name === "claude-code") {
    const pid = Number(env.CLAUDE_PID);
    return Number.isInteger(pid) && pid > 0 ? procInfo(pid) : null;
  }
  if (client.name !== "codex" || !agent || agent.command !== "codex") return null;
  const args = commandLine(agent.pid);
  if (!args) return null;
  if (!isDaemon(args)) return agent;
  return cwd ? codexUiIn(cwd) : null;
}

/** `codex app-server --listen unix:// … --managed-daemon` (observed, 0.171.0). */
function isDaemon(args: string[]): boolean {
  return args.includes("app-server") && args.includes("--managed-daemon");
}

function codexUiIn(cwd: string): ProcInfo | null {
  const found: ProcInfo[] = [];
  for (const pid of allPids()) {
    const info = procInfo(pid);
    if (info?.command !== "codex") continue;
    const args = commandLine(pid);
    if (!args || args.includes("app-server") || args.includes("exec")) continue;
    if (processCwd(pid) === cwd) found.push(info);
  }
  return found.length === 1 ? found[0]! : null;
}
