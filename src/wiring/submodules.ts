/**
 * The git hooks of a wired repository's submodules (decision 0050). Git runs a submodule's own
 * hooks (`.git/modules/<name>/hooks`) for a commit made inside it, never the superproject's, so
 * without them an agent's `git -C sub commit` of a file a live peer holds went unchecked. Read
 * only by init, deinit and doctor: the resident server's heal does not walk submodules.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { workTreeAt } from "../config/git-discovery.js";
import { GIT_HOOK_NAMES, type GitHookName } from "../core/git/hook-names.js";
import { GitError, git, splitZ } from "../git/run.js";
import { type FileState, gitHooksDir, readState, type Snapshot } from "./snapshot.js";

/** `submodule.<name>.path` values of the `.gitmodules` in `top`; none without the file. */
function declaredPaths(top: string): string[] {
  if (!existsSync(join(top, ".gitmodules"))) return [];
  try {
    const out = git(top, [
      "config",
      "-z",
      "--file",
      ".gitmodules",
      "--get-regexp",
      "^submodule\\..*\\.path$",
    ]);
    // Each entry is `key\nvalue`.
    return splitZ(out).flatMap((entry) => {
      const nl = entry.indexOf("\n");
      return nl === -1 ? [] : [entry.slice(nl + 1)];
    });
  } catch (err) {
    // Exit 1: no submodule declares a path.
    if (err instanceof GitError && err.status === 1) return [];
    throw err;
  }
}

/** The top of every initialised submodule under `top`, nested ones too; one not checked out has none. */
export function submoduleTops(top: string): string[] {
  const out: string[] = [];
  for (const path of declaredPaths(top)) {
    const sub = join(top, path);
    if (workTreeAt(sub) === null) continue;
    out.push(sub, ...submoduleTops(sub));
  }
  return out;
}

/** The snapshot with each submodule's hooks dir read (when git hooks are wired at all), each dir once. */
export function withSubmoduleHooks(s: Snapshot): Snapshot {
  if (s.gitHooks === null) return s;
  const seen = new Set([s.gitHooks.dir]);
  const submoduleHooks: NonNullable<Snapshot["submoduleHooks"]> = [];
  for (const top of submoduleTops(s.root)) {
    const dir = gitHooksDir(top);
    if (seen.has(dir)) continue;
    seen.add(dir);
    const files = Object.fromEntries(GIT_HOOK_NAMES.map((n) => [n, readState(join(dir, n))]));
    submoduleHooks.push({ dir, files: files as Record<GitHookName, FileState> });
  }
  return { ...s, submoduleHooks };
}
