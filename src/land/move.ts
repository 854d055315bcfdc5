import { closeSync, copyFileSync, openSync, renameSync, rmSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { type BlockedPath, blockedPaths, type PathHolders } from "../core/land/plan.js";
import { git, gitStatus, splitZ } from "../git/run.js";
import { dirtyPaths } from "../git/status.js";

export type MoveAnswer =
  | { kind: "moved" }
  | { kind: "blocked"; blocked: BlockedPath[] }
  | { kind: "failed"; reason: string };

const gitPath = (top: string, name: string): string => {
  const p = git(top, ["rev-parse", "--git-path", name]).trim();
  return isAbsolute(p) ? p : join(top, p);
};

/** Paths that differ between two commits (no rename pairing: both sides of a rename are touched). */
export function changedPaths(top: string, from: string, to: string): string[] {
  return splitZ(git(top, ["diff", "--name-only", "-z", "--no-renames", from, to, "--"]));
}

/** Takes git's own index lock, as `git commit` does: no commit can land in the shared checkout meanwhile. */
async function lockIndex(lockFile: string, waitMs: number): Promise<boolean> {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      closeSync(openSync(lockFile, "wx"));
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST" || Date.now() >= until) return false;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

/**
 * Moves the shared checkout's branch `ref` from `from` to `to` with two-way checkout semantics:
 * only files that differ between the two commits are rewritten, and only if nobody's work is on
 * them. The index is rebuilt in a copy and swapped in under git's index lock, and the branch moves
 * by compare-and-swap, so a commit racing the move either waits or is refused, never mixed in.
 */
export async function moveCheckout(
  top: string,
  ref: string,
  from: string,
  to: string,
  holders: ReadonlyMap<string, PathHolders>,
): Promise<MoveAnswer> {
  const changed = changedPaths(top, from, to);
  const blocked = blockedPaths(changed, dirtyPaths(top, changed), holders);
  if (blocked.length > 0) return { kind: "blocked", blocked };
  const index = gitPath(top, "index");
  const lock = `${index}.lock`;
  if (!(await lockIndex(lock, 10_000)))
    return { kind: "failed", reason: `${lock} exists: another git command holds the index` };
  const scratch = `${index}.tandem-land`;
  let committed = false;
  try {
    if (git(top, ["rev-parse", ref]).trim() !== from)
      return { kind: "failed", reason: `${ref} moved during the landing` };
    copyFileSync(index, scratch);
    const env = { GIT_INDEX_FILE: scratch };
    gitStatus(top, ["update-index", "-q", "--refresh"], { env });
    const rt = gitStatus(top, ["read-tree", "-m", "-u", from, to], { env });
    if (rt.status !== 0)
      return { kind: "failed", reason: rt.stderr.trim().split("\n")[0] ?? "git read-tree failed" };
    const up = gitStatus(top, ["update-ref", "-m", "tandem land", ref, to, from]);
    if (up.status !== 0) {
      gitStatus(top, ["read-tree", "-m", "-u", to, from], { env });
      return { kind: "failed", reason: `${ref} moved during the landing` };
    }
    // git's lockfile protocol: the new index replaces the lock, and the lock becomes the index.
    renameSync(scratch, lock);
    renameSync(lock, index);
    committed = true;
    return { kind: "moved" };
  } finally {
    rmSync(scratch, { force: true });
    if (!committed) rmSync(lock, { force: true });
  }
}
