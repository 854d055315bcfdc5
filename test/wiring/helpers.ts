import {
  accessSync,
  chmodSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { delimiter, join, relative } from "node:path";
import { PINNED, tandem } from "../helpers/cli.js";
import { cli } from "../helpers/in-process-cli.js";
import { tempDir } from "../helpers/repo.js";

/** The launcher init writes when told `--command` PINNED (what `tandem()` runs). */
export const LAUNCHER = PINNED;

/** PATH without any directory that holds a `codex`, so the trust check's outcome is fixed. */
export function pathWithoutCodex(): string {
  return (process.env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => {
      try {
        accessSync(join(dir, "codex"), constants.X_OK);
        return false;
      } catch {
        return true;
      }
    })
    .join(delimiter);
}

/** An executable `tandem` in `dir` that starts this build. */
export function tandemShim(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "tandem");
  writeFileSync(file, `#!/bin/sh\nexec ${PINNED} "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}

/**
 * PATH and HOME where `tandem` starts this build in a login shell too (~/.profile puts it on PATH,
 * as a global install is): init then tells agents `tandem`, not the repository launcher.
 */
export function loginTandem(): { PATH: string; HOME: string } {
  const base = tempDir();
  const bin = join(base, "bin");
  tandemShim(bin);
  const home = join(base, "home");
  mkdirSync(home);
  writeFileSync(join(home, ".profile"), `PATH="${bin}:$PATH"\n`);
  return { PATH: `${bin}${delimiter}${pathWithoutCodex()}`, HOME: home };
}

/** Runs tandem with a PATH that has no codex on it. */
export function run(args: string[], cwd: string, env: Record<string, string | undefined> = {}) {
  return tandem(args, { cwd, env: { PATH: pathWithoutCodex(), ...env } });
}

/** `run` answered in this process (../helpers/in-process-cli.ts): what a command reports and writes. */
export function runHere(args: string[], cwd: string, env: Record<string, string | undefined> = {}) {
  return cli(args, { cwd, env: { PATH: pathWithoutCodex(), ...env } });
}

export function read(file: string): string | null {
  return existsSync(file) ? readFileSync(file, "utf8") : null;
}

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON and assert on its shape.
export function readJson(file: string): Record<string, any> {
  return JSON.parse(readFileSync(file, "utf8"));
}

/** Every file under `dir` (skipping git's object store and logs) with its content and mode. */
export function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const rel = relative(dir, p);
      if (/^\.git\/(objects|logs|refs|index$|tandem)/.test(rel)) continue;
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else out[rel] = `${(st.mode & 0o777).toString(8)} ${readFileSync(p, "utf8")}`;
    }
  };
  walk(dir);
  return out;
}
