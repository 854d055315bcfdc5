import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { PROJECT_WIRING } from "../config/project-wiring.js";
import { GIT_HOOK_NAMES } from "../core/git/hook-names.js";
import { hooksDirOf, hooksPathSetting } from "../core/git/hooks-path.js";
import type { WiringFacts } from "../core/guards/wiring.js";
import type { PhysicalResolver } from "../facts/physical.js";
import { gitHooksDir } from "../wiring/snapshot.js";
import type { HookCtx } from "./context.js";

const HOOK_NAMES: ReadonlySet<string> = new Set(GIT_HOOK_NAMES);

function readText(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/**
 * Where git runs hooks from, at the cost of one small file read: core.hooksPath as the
 * repository's config sets it. Only when that says nothing and a target is named like a git hook
 * is git asked (a global or included core.hooksPath), so an ordinary call starts no process.
 */
function hooksDir(top: string, commonDir: string, paths: readonly string[], home?: string): string | null {
  const text = readText(join(commonDir, "config"));
  const setting = text === null ? null : hooksPathSetting(text);
  if (setting !== null) return hooksDirOf(setting, top, home);
  if (!paths.some((p) => HOOK_NAMES.has(basename(p)))) return null;
  try {
    return gitHooksDir(top);
  } catch {
    // Without git's answer the default hooks directory is still protected.
    return null;
  }
}

/** The wiring facts of the hook's checkout, for targets at `paths` (absolute). */
export function hookWiringFacts(
  ctx: HookCtx,
  paths: readonly string[],
  physicalOf: PhysicalResolver,
): WiringFacts {
  const repo = ctx.root.repo;
  const tops = repo && repo.top !== ctx.root.root ? [ctx.root.root, repo.top] : [ctx.root.root];
  if (!repo || paths.length === 0)
    return { projectFiles: PROJECT_WIRING, tops, commonDir: null, hooksDir: null };
  const physical = (p: string | null): string | null => {
    if (p === null) return null;
    const r = physicalOf(p);
    return r.ok ? r.path : p;
  };
  return {
    projectFiles: PROJECT_WIRING,
    tops,
    commonDir: physical(repo.commonDir),
    hooksDir: physical(hooksDir(repo.top, repo.commonDir, paths, ctx.req.env.HOME)),
  };
}
