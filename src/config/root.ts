import { existsSync, realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { TandemError } from "../errors.js";
import { ancestry, enclosingWorkTrees, type WorkTree } from "./git-discovery.js";

export const PROJECT_CONFIG = join(".tandem", "config.jsonc");

export type RootSource = "flag" | "env" | "claude-project-dir" | "config" | "git";

export interface ResolvedRoot {
  /** Physical path of the coordination root. */
  root: string;
  source: RootSource;
  /** The working tree containing the root (innermost), or null outside Git. */
  repo: WorkTree | null;
}

export interface RootRequest {
  cwd: string;
  /** `--root DIR` */
  flag?: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  /** Hooks may use CLAUDE_PROJECT_DIR; CLI commands may not (a Claude shell exports it everywhere). */
  hook?: boolean;
}

function physicalDir(path: string, what: string): string {
  let real: string;
  try {
    real = realpathSync.native(path);
  } catch {
    throw new TandemError(`${what} ${path} does not exist; pass an existing directory.`, 2);
  }
  if (!statSync(real).isDirectory()) {
    throw new TandemError(`${what} ${path} is not a directory; pass a directory.`, 2);
  }
  return real;
}

function explicitRoot(req: RootRequest): { path: string; source: RootSource; what: string } | null {
  if (req.flag) return { path: resolve(req.cwd, req.flag), source: "flag", what: "--root" };
  if (req.env.TANDEM_ROOT)
    return { path: resolve(req.cwd, req.env.TANDEM_ROOT), source: "env", what: "TANDEM_ROOT" };
  if (req.hook && req.env.CLAUDE_PROJECT_DIR) {
    return { path: req.env.CLAUDE_PROJECT_DIR, source: "claude-project-dir", what: "CLAUDE_PROJECT_DIR" };
  }
  return null;
}

function discoveredRoot(cwd: string): { root: string; source: RootSource } | null {
  let outermost: string | null = null;
  for (const { dir, tree } of ancestry(cwd)) {
    if (existsSync(join(dir, PROJECT_CONFIG))) return { root: dir, source: "config" };
    if (tree) outermost = tree.top;
  }
  return outermost ? { root: outermost, source: "git" } : null;
}

/**
 * The one root resolution used by every hook and command (docs/product.md §2):
 * --root, TANDEM_ROOT, CLAUDE_PROJECT_DIR (hooks), the nearest ancestor with
 * .tandem/config.jsonc, else the outermost working tree (superprojects win).
 */
export function resolveRoot(req: RootRequest): ResolvedRoot {
  const explicit = explicitRoot(req);
  if (explicit) {
    const root = physicalDir(explicit.path, explicit.what);
    return { root, source: explicit.source, repo: enclosingWorkTrees(root)[0] ?? null };
  }
  const cwd = physicalDir(req.cwd, "The working directory");
  const found = discoveredRoot(cwd);
  if (!found) {
    throw new TandemError(
      `${cwd} is not inside a Git repository or a Tandem project; run Tandem inside a repository, or pass --root DIR.`,
      2,
    );
  }
  return { root: found.root, source: found.source, repo: enclosingWorkTrees(found.root)[0] ?? null };
}

/** `<git common dir>/tandem`: shared by every worktree of the repository, never committed. */
export function stateDirOf(resolved: ResolvedRoot): string {
  if (!resolved.repo) {
    throw new TandemError(
      `${resolved.root} is not inside a Git repository, and Tandem keeps its state in the repository's Git directory; run it inside a repository.`,
      1,
    );
  }
  return join(resolved.repo.commonDir, "tandem");
}
