import { readFileSync } from "node:fs";
import { join } from "node:path";
import { agentCommand, naturalCommand } from "../core/shell/agent-command.js";
import { pinnedLauncher } from "./hook-command.js";
import { existingRepoLauncher } from "./repo-launcher.js";

/**
 * What decides the command agents are told (src/core/shell/agent-command.ts), read from the state
 * directory: the last login-shell probe (init and doctor run it; hooks only read it) and whether
 * init wrote the repository launcher. Init's rules and the hooks' messages read the same facts,
 * so the allow rules always name the command the agents see.
 */

export const PROBE_FILE = "agent-shell.json";

export interface LoginProbe {
  /** The command that was tried (`<command> --version`). */
  command: string;
  works: boolean;
  /** What the shell said when it failed (its last stderr line), else "". */
  detail: string;
}

export function readProbe(stateDir: string): LoginProbe | null {
  try {
    const p = JSON.parse(readFileSync(join(stateDir, PROBE_FILE), "utf8")) as LoginProbe;
    return typeof p.command === "string" && typeof p.works === "boolean" ? p : null;
  } catch {
    return null;
  }
}

/** How agents of this repository are told to start Tandem, for `launcher`; no process is spawned. */
export function agentCommandFor(root: string, stateDir: string, launcher: string | null): string {
  const natural = naturalCommand(launcher, root);
  const probe = readProbe(stateDir);
  const loginWorks = probe && probe.command === natural ? probe.works : null;
  const repoLauncher = existingRepoLauncher(stateDir);
  return agentCommand({ launcher, root, repoLauncher, pinned: pinnedLauncher(), loginWorks });
}
