import { accessSync, constants, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, delimiter, join } from "node:path";
import { outputOrNull } from "./run-home.js";

/**
 * The interpreters the suite runs, unshimmed (decision 0086). Tests run `python3` as the program
 * Tandem cannot read; when the developer's PATH finds it in a version manager's `shims` directory
 * (pyenv, asdf, mise), every call first runs the manager's shell program: ~10 processes and ~75 ms
 * of CPU against ~9 ms, some 150 times a run. The run's PATH starts with a directory holding a link
 * to the interpreter that shim resolves to now, so the version is the developer's and the cost is not.
 */

/** Commands worth unshimming: those tests start often enough to matter. */
export const UNSHIMMED = ["python3"] as const;

export interface ShimFacts {
  /** The first PATH directory holding each command, or null when none does. */
  found: Record<string, string | null>;
}

/** Which commands to link past their shim; empty when none is found in a `shims` directory. Pure. */
export function shimmedCommands(f: ShimFacts): string[] {
  return UNSHIMMED.filter((c) => {
    const dir = f.found[c];
    return dir != null && basename(dir) === "shims";
  });
}

function firstDirWith(cmd: string, path: string): string | null {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, cmd), constants.X_OK);
      return dir;
    } catch {
      // Not here.
    }
  }
  return null;
}

/** What the shim starts now, as the interpreter itself reports it. */
const realExecutable = (cmd: string): string | null =>
  outputOrNull(cmd, ["-c", "import sys; print(sys.executable)"]);

/** Prepends the run's link directory to PATH when a command is shimmed (call after useRunTmp). */
export function useRunPath(env: NodeJS.ProcessEnv = process.env): () => void {
  const path = env.PATH ?? "";
  const found = Object.fromEntries(UNSHIMMED.map((c) => [c, firstDirWith(c, path)]));
  const links = shimmedCommands({ found }).flatMap((c) => {
    const real = realExecutable(c);
    return real ? [[c, real] as const] : [];
  });
  if (links.length === 0) return () => {};
  const bin = mkdtempSync(join(tmpdir(), "tandem-test-bin-"));
  for (const [c, real] of links) symlinkSync(real, join(bin, c));
  env.PATH = `${bin}${delimiter}${path}`;
  return () => rmSync(bin, { recursive: true, force: true });
}
