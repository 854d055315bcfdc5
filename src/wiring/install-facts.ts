import { accessSync, constants, realpathSync } from "node:fs";
import { basename, delimiter, dirname, join } from "node:path";
import { runningScript } from "./hook-command.js";
import type { InstallFacts } from "./launcher.js";

type Env = Readonly<Record<string, string | undefined>>;

function real(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

interface OnPath {
  /** The `tandem` PATH found, in its directory's real path. */
  file: string;
  /** The bundle it leads to. */
  bundle: string | null;
}

/**
 * The `tandem` on PATH and the bundle it leads to (npm installs it as a symlink), or null. The
 * command is the thin client `dist/tandem`, which starts the `tandem.cjs` beside it (docs/server.md).
 */
function tandemOnPath(env: Env): OnPath | null {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, "tandem");
    try {
      accessSync(file, constants.X_OK);
    } catch {
      continue;
    }
    const found = real(file);
    const at = join(real(dir) ?? dir, "tandem");
    if (found && basename(found) === "tandem")
      return { file: at, bundle: real(join(dirname(found), "tandem.cjs")) ?? found };
    return { file: at, bundle: found };
  }
  return null;
}

/** Where the running Tandem is installed, for `chooseLauncher`. */
export function installFacts(root: string, env: Env): InstallFacts {
  const script = runningScript();
  const found = tandemOnPath(env);
  return {
    script: script && real(script),
    root: real(root) ?? root,
    onPath: found?.bundle ?? null,
    onPathFile: found?.file ?? null,
  };
}
