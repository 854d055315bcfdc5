import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";

/** A working tree found by looking for `.git` on disk (no git process: this runs on every hook). */
export interface WorkTree {
  top: string;
  gitDir: string;
  commonDir: string;
  /** A linked worktree (`git worktree add`) is its own coordination unit: discovery stops there. */
  linked: boolean;
}

function readGitFile(file: string): string | null {
  try {
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(file, "utf8"));
    return m?.[1] ?? null;
  } catch {
    return null;
  }
}

function readCommonDir(gitDir: string): string | null {
  // Asked first: a main repository has no commondir, and a thrown ENOENT costs on every hook.
  if (!existsSync(join(gitDir, "commondir"))) return null;
  try {
    const rel = readFileSync(join(gitDir, "commondir"), "utf8").trim();
    return rel ? resolve(gitDir, rel) : null;
  } catch {
    return null;
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/** The working tree whose top is exactly `dir`, if any. */
export function workTreeAt(dir: string): WorkTree | null {
  const dotGit = join(dir, ".git");
  let st: ReturnType<typeof statSync> | undefined;
  try {
    // Most directories walked have no .git: answering without an exception keeps discovery cheap.
    st = statSync(dotGit, { throwIfNoEntry: false });
  } catch {
    return null;
  }
  if (!st) return null;
  if (st.isDirectory()) {
    if (!isDir(join(dotGit, "objects")) && !isDir(join(dotGit, "refs"))) return null;
    return { top: dir, gitDir: dotGit, commonDir: readCommonDir(dotGit) ?? dotGit, linked: false };
  }
  const target = readGitFile(dotGit);
  if (!target) return null;
  const gitDir = isAbsolute(target) ? target : resolve(dir, target);
  const common = readCommonDir(gitDir);
  return { top: dir, gitDir, commonDir: common ?? gitDir, linked: common !== null };
}

/**
 * Directories from `start` upwards that belong to the same coordination space:
 * the walk stops at a linked worktree's top (inclusive) and never climbs out of
 * a `.git` directory (a child worktree kept under `.git/tandem/worktrees/` must
 * not resolve to the repository that hosts it).
 */
export function* ancestry(start: string): Generator<{ dir: string; tree: WorkTree | null }> {
  let dir = start;
  for (;;) {
    if (basename(dir) === ".git") return;
    const tree = workTreeAt(dir);
    yield { dir, tree };
    if (tree?.linked) return;
    const parent = dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}

/** Working trees containing `start`, innermost first. */
export function enclosingWorkTrees(start: string): WorkTree[] {
  const out: WorkTree[] = [];
  for (const { tree } of ancestry(start)) if (tree) out.push(tree);
  return out;
}
