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

/**
 * The bundle `tandem` on PATH leads to (npm installs it as a symlink), or null. The command is the
 * thin client `dist/tandem`, which starts the `tandem.cjs` beside it (docs/server.md).
 */
function tandemOnPath(env: Env): string | null {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, "tandem");
    try {
      accessSync(file, constants.X_OK);
    } catch {
      continue;
    }
    const found = real(file);
    if (found && basename(found) === "tandem") return real(join(dirname(found), "tandem.cjs")) ?? found;
    return found;
  }
  return null;
}

/** Where the running Tandem is installed, for `chooseLauncher`. */
export function installFacts(root: string, env: Env): InstallFacts {
  const script = runningScript();
  return { script: script && real(script), root: real(root) ?? root, onPath: tandemOnPath(env) };
}
