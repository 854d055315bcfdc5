import { lstatSync } from "node:fs";
import { join } from "node:path";
import { git, splitZ } from "./run.js";

/** A pathspec that matches exactly this path, whatever characters it contains. */
export function literal(path: string): string {
  return `:(literal)${path}`;
}

/**
 * Paths (relative to the repository top) with staged, unstaged or untracked
 * changes, from one `git status -z` call; optionally limited to `paths`.
 */
export function dirtyPaths(repoTop: string, paths?: readonly string[]): Set<string> {
  if (paths && paths.length === 0) return new Set();
  const args = ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames"];
  if (paths) args.push("--", ...paths.map(literal));
  const out = new Set<string>();
  for (const entry of splitZ(git(repoTop, args))) out.add(entry.slice(3));
  return out;
}

/** A stamp that changes when a file's content is likely to have changed. */
export function fileStamp(abs: string): string {
  try {
    const st = lstatSync(abs);
    return `${st.size}:${st.mtimeMs}:${st.mode}`;
  } catch {
    return "missing";
  }
}

/** The dirty set with a stamp per path, so a command that rewrites an already-dirty file is seen. */
export function dirtySnapshot(repoTop: string): Record<string, string> {
  const snap: Record<string, string> = {};
  for (const p of dirtyPaths(repoTop)) snap[p] = fileStamp(join(repoTop, p));
  return snap;
}

/** Paths whose presence or stamp differs between two snapshots. */
export function snapshotDelta(before: Record<string, string>, after: Record<string, string>): string[] {
  const changed = Object.keys(after).filter((p) => before[p] !== after[p]);
  const cleaned = Object.keys(before).filter((p) => !(p in after));
  return [...changed, ...cleaned].sort();
}
