/**
 * The jail launcher and the plans it reads, in the state directory (docs/decisions/0056):
 * `<state>/bin/jail` (written by `tandem init` and again by the hook when missing or stale) and
 * `<state>/jail/<session>.plan`. Both sit under `<state>`, which every jail binds read-only.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fstabText, launcherText, planFileText } from "../core/jail/launcher.js";
import { type ProbeFacts, type ProbeVerdict, probeVerdict } from "../core/jail/probe.js";
import { type Printer, printed } from "../core/printed.js";
import { printerOf } from "../wiring/agent-shell.js";
import { keyName, secretsDir, writeSecretsView } from "./keys.js";
import { probeFacts } from "./probe.js";

export function jailLauncherPath(stateDir: string): string {
  return join(stateDir, "bin", "jail");
}

/** Writes `text` to `file` by rename, so a reader never sees half of it. */
function replaceFile(file: string, text: string, mode: number): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, file);
}

/**
 * The launcher's path, written first when it is missing or not this version's text. Its refusal
 * names doctor as the agents of `root` start Tandem, whoever writes it, so writers agree.
 */
export function ensureJailLauncher(stateDir: string, root: string): string {
  const file = jailLauncherPath(stateDir);
  const text = launcherText(printed(printerOf(root, stateDir, "agent"), "doctor"));
  let current: string | null = null;
  try {
    current = readFileSync(file, "utf8");
  } catch {
    current = null;
  }
  if (current !== text) {
    mkdirSync(join(stateDir, "bin"), { recursive: true });
    replaceFile(file, text, 0o755);
  }
  return file;
}

/**
 * Writes the session's plan (read-only paths, NUL-separated), its fstab and its view of the
 * secrets (decision 0064: the launcher binds that over the secrets directory), and returns the
 * plan's path. Its name is the session's key name.
 */
export function writeJailPlan(stateDir: string, session: string, paths: readonly string[]): string {
  const dir = join(stateDir, "jail");
  mkdirSync(dir, { recursive: true });
  const name = keyName(session);
  const view = writeSecretsView(stateDir, name);
  const file = join(dir, `${name}.plan`);
  // The fstab first: a launcher that finds the new plan finds its fstab too.
  const covers = [{ source: view, target: secretsDir(stateDir) }];
  replaceFile(join(dir, `${name}.fstab`), fstabText(paths, covers), 0o644);
  replaceFile(file, planFileText(paths), 0o644);
  return file;
}

let probed: { path: string; facts: ProbeFacts } | null = null;

/**
 * Whether the kernel jails here, tried once per process and PATH (the resident server asks
 * often); `p` spells the fix's commands for its reader.
 */
export function kernelVerdict(env: Readonly<Record<string, string | undefined>>, p: Printer): ProbeVerdict {
  const path = env.PATH ?? "";
  if (probed?.path !== path) probed = { path, facts: probeFacts(env) };
  return probeVerdict(probed.facts, p);
}
