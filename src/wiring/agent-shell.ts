import { spawnSync } from "node:child_process";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { launcherWords } from "../clients/launcher-words.js";
import type { Printer, Reader } from "../core/printed.js";
import { naturalCommand } from "../core/shell/agent-command.js";
import { printerFor } from "../core/shell/person-launcher.js";
import { agentCommandFor, type LoginProbe, PROBE_FILE } from "./agent-launch.js";
import { readRecordedInit } from "./options.js";

export { type LoginProbe, readProbe } from "./agent-launch.js";

/**
 * Whether the command agents are told to run starts Tandem in a login shell, as Codex's shell
 * tool starts (issue 14). Probing spawns `bash -lc`, far too slow for a hook, so `init` and
 * `doctor` probe and leave the answer in the state directory, where hooks only read it.
 */

const PROBE_TIMEOUT_MS = 15_000;

/** Runs `bash -lc '<command> --version'` from the root, as the client's shell tool would. */
export function probeLogin(command: string, root: string, env: NodeJS.ProcessEnv): LoginProbe {
  const r = spawnSync("bash", ["-lc", `${command} --version`], {
    cwd: root,
    env,
    encoding: "utf8",
    timeout: PROBE_TIMEOUT_MS,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const works = r.status === 0;
  const last = (r.stderr ?? "").trim().split("\n").at(-1) ?? "";
  const detail = works ? "" : last || (r.error ? r.error.message : `exit ${r.status ?? r.signal}`);
  return { command, works, detail };
}

/** Best effort: without the file, agents are told the natural form, as before any probe. */
export function writeProbe(stateDir: string, probe: LoginProbe): void {
  try {
    mkdirSync(stateDir, { recursive: true });
    const tmp = join(stateDir, `${PROBE_FILE}.${process.pid}`);
    writeFileSync(tmp, `${JSON.stringify(probe)}\n`);
    renameSync(tmp, join(stateDir, PROBE_FILE));
  } catch {
    // A read-only state directory is reported by the store checks.
  }
}

/** The natural command for this project's recorded launcher; null when init recorded none. */
export function projectNatural(root: string): string | null {
  const launcher = readRecordedInit(root)?.command;
  return launcher ? naturalCommand(launcher, root) : null;
}

/** How agents of this project are told to start Tandem: no process is spawned. */
export function agentCommandOf(root: string, stateDir: string): string {
  return agentCommandFor(root, stateDir, readRecordedInit(root)?.command ?? null);
}

/** How a message to `reader` spells this project's Tandem commands (src/core/shell/printed.ts). */
export function printerOf(root: string, stateDir: string, reader: Reader): Printer {
  const text = readRecordedInit(root)?.command ?? null;
  const agentLauncher = reader === "agent" ? agentCommandFor(root, stateDir, text) : "";
  const recorded = text === null ? null : { text, words: launcherWords(text) };
  return printerFor(reader, { agentLauncher, recorded, root });
}
