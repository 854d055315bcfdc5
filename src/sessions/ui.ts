import type { ClientSpec, UiProcessRule } from "../clients/types.js";
import { allPids, commandLine, type ProcInfo, processCwd, procInfo } from "./proc.js";

/**
 * The process the person sees for a session, when Tandem can tell it, so liveness notices them
 * leaving (docs/clients.md §2.6). Each client module says how (`ClientSpec.ui`). Null when
 * unknown or ambiguous (two UIs in the session's directory).
 */
export function uiProcess(
  client: ClientSpec,
  agent: ProcInfo | null,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string | null,
): ProcInfo | null {
  const rule = client.ui;
  if (!rule) return null;
  if (rule.kind === "env-pid") {
    const pid = Number(env[rule.variable]);
    return Number.isInteger(pid) && pid > 0 ? procInfo(pid) : null;
  }
  if (!agent) return null;
  const args = commandLine(agent.pid);
  if (!args || !isNamed(agent, args, client.processName)) return null;
  if (rule.daemonArgs.length === 0 || !rule.daemonArgs.every((a) => args.includes(a))) return agent;
  return cwd ? uiIn(cwd, client.processName, rule) : null;
}

/**
 * The process's name, or its program's file name: Copilot's binary renames its main thread, so
 * its process is named `MainThread`, not `copilot`.
 */
export function isNamed(info: ProcInfo, args: readonly string[], name: string): boolean {
  return info.command === name || args[0]?.split("/").pop() === name;
}

function uiIn(cwd: string, name: string, rule: Extract<UiProcessRule, { kind: "agent" }>): ProcInfo | null {
  const found: ProcInfo[] = [];
  for (const pid of allPids()) {
    const info = procInfo(pid);
    if (info?.command !== name) continue;
    const args = commandLine(pid);
    if (!args || rule.notUi.some((a) => args.includes(a))) continue;
    if (processCwd(pid) === cwd) found.push(info);
  }
  return found.length === 1 ? found[0]! : null;
}
