/**
 * The jail launcher and the plans it reads, in the state directory (docs/decisions/0056):
 * `<state>/bin/jail` (written by `tandem init` and again by the hook when missing or stale) and
 * `<state>/jail/<session>.plan`. Both sit under `<state>`, which every jail binds read-only.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fstabText, LAUNCHER_TEXT, planFileText } from "../core/jail/launcher.js";
import type { ProbeVerdict } from "../core/jail/probe.js";
import { keyName, secretsDir, writeSecretsView } from "./keys.js";
import { probeJail } from "./probe.js";

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

/** The launcher's path, written first when it is missing or not this version's text. */
export function ensureJailLauncher(stateDir: string): string {
  const file = jailLauncherPath(stateDir);
  let current: string | null = null;
  try {
    current = readFileSync(file, "utf8");
  } catch {
    current = null;
  }
  if (current !== LAUNCHER_TEXT) {
    mkdirSync(join(stateDir, "bin"), { recursive: true });
    replaceFile(file, LAUNCHER_TEXT, 0o755);
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

let probed: { path: string; verdict: ProbeVerdict } | null = null;

/** Whether the kernel jails here, tried once per process and PATH (the resident server asks often). */
export function kernelVerdict(env: Readonly<Record<string, string | undefined>>): ProbeVerdict {
  const path = env.PATH ?? "";
  if (probed?.path !== path) probed = { path, verdict: probeJail(env) };
  return probed.verdict;
}
