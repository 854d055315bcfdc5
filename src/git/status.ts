/**
 * Running `git status`: every caller asks through statusArgs() for porcelain v2 with `-z` and
 * without rename detection, and reads the answer with core/git/status.ts.
 */
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { parseStatus, type StatusReport, statusPaths, withinPathspecs } from "../core/git/status.js";
import { GitError, type GitOptions, git, gitStatusAsync } from "./run.js";

/** A pathspec that matches exactly this path, whatever characters it contains. */
export function literal(path: string): string {
  return `:(literal)${path}`;
}

export interface StatusQuery {
  /** `# branch.*` headers. */
  branch?: boolean;
  /** Untracked files one by one (`all`, the default), or none. */
  untracked?: "all" | "no";
  /** Ignored paths: one by one (`traditional`), or a wholly ignored directory once (`matching`). */
  ignored?: "traditional" | "matching";
  /** Overrides the repository's `submodule.*.ignore` and `diff.ignoreSubmodules` settings. */
  ignoreSubmodules?: "none" | "dirty";
  /** Paths relative to the top, matched literally; omitted: the whole tree. */
  paths?: readonly string[];
}

/**
 * The arguments after `git`. Renames are never detected, so every side of a move is a plain path
 * whatever `status.renames` says.
 */
export function statusArgs(q: StatusQuery = {}): string[] {
  const args = [
    "status",
    "--porcelain=v2",
    "-z",
    "--no-renames",
    `--untracked-files=${q.untracked ?? "all"}`,
  ];
  if (q.branch) args.push("--branch");
  if (q.ignored) args.push(`--ignored=${q.ignored}`);
  if (q.ignoreSubmodules) args.push(`--ignore-submodules=${q.ignoreSubmodules}`);
  if (q.paths) args.push("--", ...q.paths.map(literal));
  return args;
}

/** Our pathspecs carry their own magic: an inherited GIT_LITERAL_PATHSPECS would read it as a name. */
export const OWN_PATHSPECS = {
  GIT_LITERAL_PATHSPECS: "0",
  GIT_GLOB_PATHSPECS: "0",
  GIT_NOGLOB_PATHSPECS: "0",
  GIT_ICASE_PATHSPECS: "0",
};

/** More pathspecs than this and a status reads the whole tree instead (readStatus). */
export const PATHSPEC_LIMIT = 1000;

/** The status of the working tree at `top`; `before` goes ahead of `status` (e.g. `-c` settings). */
export function readStatus(
  top: string,
  q: StatusQuery = {},
  opts: GitOptions & { before?: readonly string[] } = {},
): StatusReport {
  const { before = [], ...gitOpts } = opts;
  // Past this many pathspecs the argument list nears the kernel's limit (E2BIG): the whole tree is
  // read once and the named paths picked from it.
  if (q.paths && q.paths.length > PATHSPEC_LIMIT) {
    const whole = readStatus(top, { ...q, paths: undefined }, opts);
    return { ...whole, records: withinPathspecs(whole.records, q.paths) };
  }
  const env = q.paths ? { ...OWN_PATHSPECS, ...gitOpts.env } : gitOpts.env;
  return parseStatus(git(top, [...before, ...statusArgs(q)], { ...gitOpts, env }));
}

/** Paths (relative to the top) with staged, unstaged or untracked changes; optionally only `paths`. */
export function dirtyPaths(top: string, paths?: readonly string[]): Set<string> {
  if (paths && paths.length === 0) return new Set();
  return new Set(statusPaths(readStatus(top, { paths }).records));
}

/**
 * A stamp that changes whenever a file's content may have changed: size, mtime and mode, and what a
 * writer cannot set back (issue 37.2): the ctime, which every write and `utimes` move to now, and
 * the inode, which a rename over the file replaces. `cp -p`, `tar x`, `rsync -t` or `os.utime`
 * restore the mtime, not these. A stamp that changed with the same bytes (a chmod and back, a new
 * hard link) is told apart by its content where it matters (core/safety/owner-versions.ts).
 */
export function fileStamp(abs: string): string {
  try {
    const st = lstatSync(abs);
    return `${st.size}:${st.mtimeMs}:${st.mode}:${st.ctimeMs}:${st.ino}`;
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

/**
 * dirtySnapshot() without blocking: git runs while the caller does its other work. Aborting
 * `signal` kills git (status takes no lock) and rejects.
 */
export async function dirtySnapshotAsync(
  repoTop: string,
  signal?: AbortSignal,
): Promise<Record<string, string>> {
  const res = await gitStatusAsync(repoTop, statusArgs(), signal ? { signal } : {});
  if (res.status !== 0) throw new GitError(statusArgs(), repoTop, res.status, res.stderr);
  const snap: Record<string, string> = {};
  for (const p of statusPaths(parseStatus(res.stdout).records)) snap[p] = fileStamp(join(repoTop, p));
  return snap;
}

/** Paths whose presence or stamp differs between two snapshots. */
export function snapshotDelta(before: Record<string, string>, after: Record<string, string>): string[] {
  const changed = Object.keys(after).filter((p) => before[p] !== after[p]);
  const cleaned = Object.keys(before).filter((p) => !(p in after));
  return [...changed, ...cleaned].sort();
}
