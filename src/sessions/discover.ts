import type { ClientSpec } from "../clients/types.js";
import { ancestors, commandLine, type ProcInfo, procInfo } from "./proc.js";
import { namesClient } from "./ui.js";

const SHELLS = new Set(["sh", "bash", "dash", "zsh", "fish", "ash", "node", "timeout", "env"]);

/**
 * The agent process behind a hook (docs/product.md §4.1): a client whose UI rule is `env-pid`
 * (Claude's CLAUDE_PID) names it;
 * otherwise the nearest ancestor whose name matches the client, else the first
 * ancestor that is not a shell. Returns null when nothing plausible is found.
 */
export function discoverAgent(
  client: ClientSpec,
  env: Readonly<Record<string, string | undefined>>,
  hookPid: number,
): ProcInfo | null {
  const envPid = client.ui?.kind === "env-pid" ? Number(env[client.ui.variable]) : Number.NaN;
  if (Number.isInteger(envPid) && envPid > 0) {
    const info = procInfo(envPid);
    if (info) return info;
  }
  const chain = ancestors(hookPid, 12);
  const named = chain.find((p) => namesClient(p, commandLine(p.pid) ?? [], client.processName));
  return named ?? chain.find((p) => !SHELLS.has(p.command)) ?? null;
}
