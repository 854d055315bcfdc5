import { basename } from "node:path";
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
  if (!args || !namesClient(agent, args, client.processName)) return null;
  if (!isDaemon(rule, args)) return agent;
  return cwd ? uiIn(cwd, client.processName, rule) : null;
}

/** The agent process is the client's shared daemon (it outlives every UI), by its arguments. */
export function isDaemon(rule: UiProcessRule, args: readonly string[]): boolean {
  return (
    rule.kind === "agent" && rule.daemonArgs.length > 0 && rule.daemonArgs.every((a) => args.includes(a))
  );
}

/**
 * A process that is the client's, by name: its name or program (`codex`, Copilot's `MainThread`
 * running `copilot`), or, for a client written for Node (Gemini CLI, Qwen Code, Cline's launcher),
 * `node [options] <script>` whose script is named for it. Later arguments (the prompt) are not read.
 */
export function namesClient(info: ProcInfo, args: readonly string[], name: string): boolean {
  return (
    info.command.toLowerCase().includes(name) || isNamed(info, args, name) || runsScript(info, args, name)
  );
}

function runsScript(p: ProcInfo, args: readonly string[], name: string): boolean {
  if (p.command !== "node") return false;
  const script = args.slice(1).find((a) => !a.startsWith("-"));
  return script !== undefined && basename(script).toLowerCase().includes(name);
}

/**
 * The process's name, or its program's file name: Copilot's binary renames its main thread, so
 * its process is named `MainThread`, not `copilot`.
 */
export function isNamed(info: ProcInfo, args: readonly string[], name: string): boolean {
  return info.command === name || args[0]?.split("/").pop() === name;
}

/**
 * The one UI of the client working in `cwd`. A launcher and the program it starts (Cline's node
 * launcher and its binary, Qwen's relaunch) are one UI: the outermost stands for both.
 */
function uiIn(cwd: string, name: string, rule: Extract<UiProcessRule, { kind: "agent" }>): ProcInfo | null {
  const found: ProcInfo[] = [];
  for (const pid of allPids()) {
    const info = procInfo(pid);
    if (!info) continue;
    const args = commandLine(pid);
    if (!args || !namesClient(info, args, name) || rule.notUi.some((a) => args.includes(a))) continue;
    if (processCwd(pid) === cwd) found.push(info);
  }
  const outermost = found.filter((p) => !found.some((q) => q.pid === p.ppid));
  return outermost.length === 1 ? outermost[0]! : null;
}
