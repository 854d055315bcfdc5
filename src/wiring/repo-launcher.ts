import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { shellQuote } from "../core/shell/quote.js";
import { runningScript } from "./hook-command.js";

/**
 * The repository launcher (decision 0030): `<git common dir>/tandem/bin/tandem`, a two-line script
 * that starts this machine's Tandem with this machine's Node. Agents are told it when the recorded
 * launcher does not start in a login shell (a prefix or nvm install, PATH set in ~/.bashrc only),
 * so the command they run is short, the same in every worktree, and exactly what the allow rules
 * name. It lives in the state directory: never committed, and agents may not write there.
 */

const MARK = "# Written by `tandem init` (decision 0030); re-run `tandem init` after moving Node or Tandem.";

export function repoLauncherPath(stateDir: string): string {
  return join(stateDir, "bin", "tandem");
}

export interface LauncherTarget {
  /** Absolute Node that runs Tandem here. */
  node: string;
  /** Absolute `tandem.cjs` of this install. */
  script: string;
  /** The thin client beside it (`dist/tandem`), or null when there is none (running from sources). */
  thin: string | null;
}

/**
 * The script's text (pure). The thin client answers the ritual through the resident server and
 * finds Node as `$TANDEM_NODE`, so a login shell without Node on PATH (nvm) still starts it.
 */
export function repoLauncherText(t: LauncherTarget): string {
  const node = shellQuote(t.node);
  const run = t.thin ? `exec ${shellQuote(t.thin)} "$@"` : `exec ${node} ${shellQuote(t.script)} "$@"`;
  return [
    "#!/bin/sh",
    MARK,
    `[ -n "\${TANDEM_NODE-}" ] || TANDEM_NODE=${node}`,
    "export TANDEM_NODE",
    run,
    "",
  ].join("\n");
}

/** The running install, or null when its bundle is unknown. */
export function runningTarget(): LauncherTarget | null {
  const script = runningScript();
  if (!script) return null;
  const thin = join(dirname(script), "tandem");
  return { node: process.execPath, script, thin: script.endsWith(".cjs") && existsSync(thin) ? thin : null };
}

/** Writes (or rewrites) the launcher; returns its path, or null when it cannot be written. */
export function writeRepoLauncher(stateDir: string, target: LauncherTarget | null): string | null {
  if (!target) return null;
  const file = repoLauncherPath(stateDir);
  const text = repoLauncherText(target);
  try {
    if (existsSync(file) && readFileSync(file, "utf8") === text) return file;
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}`;
    writeFileSync(tmp, text, { mode: 0o755 });
    chmodSync(tmp, 0o755);
    renameSync(tmp, file);
    return file;
  } catch {
    return null;
  }
}

/** The launcher's path when init wrote one, else null. */
export function existingRepoLauncher(stateDir: string): string | null {
  const file = repoLauncherPath(stateDir);
  return existsSync(file) ? file : null;
}
