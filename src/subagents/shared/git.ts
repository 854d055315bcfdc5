import { existsSync, lstatSync, readlinkSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { workTreeAt } from "../../config/git-discovery.js";
import { statusEntries } from "../../core/git/status.js";
import { git, gitStatus, splitZ } from "../../git/run.js";
import { dirtyPaths, readStatus } from "../../git/status.js";

/**
 * Git steps of an apply, run in the target worktree. User config must not change
 * what lands: no three-way am (patch ids must match on a retry), no signing
 * prompt, no whitespace rewriting.
 */
const APPLY_CONFIG = [
  "-c",
  "am.threeWay=false",
  "-c",
  "am.keepcr=true",
  "-c",
  "apply.whitespace=nowarn",
  "-c",
  "apply.ignoreWhitespace=no",
  "-c",
  "commit.gpgSign=false",
  "-c",
  "core.quotePath=false",
];

/** Hooks off, for scratch worktrees of dry runs only; a real apply keeps the user's hooks. */
export const NO_HOOKS = ["-c", "core.hooksPath=/dev/null"];

const LITERAL = { GIT_LITERAL_PATHSPECS: "1" };

export interface GitResult {
  ok: boolean;
  stderr: string;
  stdout: string;
  /** Set by applyPatch when the plain apply went through: nothing was staged. */
  plain?: boolean;
}

function run(top: string, args: string[], extra: string[] = []): GitResult {
  const r = gitStatus(top, [...APPLY_CONFIG, ...extra, ...args]);
  return { ok: r.status === 0, stderr: r.stderr, stdout: r.stdout };
}

/** The physical top of the worktree containing `dir`, or null outside one. */
export function worktreeTop(dir: string): string | null {
  const r = gitStatus(dir, ["rev-parse", "--show-toplevel"]);
  const top = r.stdout.trim();
  return r.status === 0 && top ? realpathSync.native(top) : null;
}

export function headOf(top: string): string | null {
  const r = gitStatus(top, ["rev-parse", "--verify", "-q", "HEAD^{commit}"]);
  return r.status === 0 ? r.stdout.trim() : null;
}

export function resolveCommit(top: string, ref: string): string | null {
  const r = gitStatus(top, ["rev-parse", "--verify", "-q", "--end-of-options", `${ref}^{commit}`]);
  return r.status === 0 ? r.stdout.trim() : null;
}

/** True when `a` is `b` or an ancestor of it; a missing commit is not an ancestor. */
export function isAncestor(top: string, a: string, b: string): boolean {
  if (a === b) return true;
  return gitStatus(top, ["merge-base", "--is-ancestor", a, b]).status === 0;
}

/**
 * A git operation that owns the index right now (am, rebase, merge, cherry-pick, revert). Their
 * state lives in the worktree's own git directory, found on disk; git is asked only when that
 * cannot be read.
 */
export function operationInProgress(top: string): string | null {
  const gitDir = workTreeAt(top)?.gitDir;
  const paths = gitDir ? OPERATION_FILES.map((n) => join(gitDir, n)) : gitPaths(top);
  const at = (i: number): boolean => {
    const p = paths[i];
    return p !== undefined && existsSync(p);
  };
  const rebaseApply = paths[0];
  if (rebaseApply !== undefined && existsSync(join(rebaseApply, "applying"))) return "am";
  if (at(0) || at(1)) return "rebase";
  if (at(2)) return "merge";
  if (at(3)) return "cherry-pick";
  if (at(4)) return "revert";
  return null;
}

const OPERATION_FILES = ["rebase-apply", "rebase-merge", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD"];

function gitPaths(top: string): string[] {
  return (
    git(top, ["rev-parse", ...OPERATION_FILES.flatMap((n) => ["--git-path", n])])
      .split("\n")
      // Linked worktrees get absolute paths, the main one relative ones.
      .map((p) => resolve(top, p))
  );
}

/** HEAD, the staged paths and every dirty path of a target, from one status. */
export interface TargetState {
  head: string | null;
  /** Index differs from HEAD (unmerged included), as `stagedPaths` reports them. */
  staged: string[];
  /** Staged, unstaged and untracked, as `targetDirty` reports them. */
  dirty: string[];
}

export function targetState(top: string): TargetState {
  const { branch, records } = readStatus(top, { branch: true });
  const entries = statusEntries(records);
  return {
    head: branch.oid,
    // X is the index against HEAD; an unmerged entry (UU, AA…) counts as staged too.
    staged: entries.filter((e) => e.staged).map((e) => e.path),
    dirty: entries.map((e) => e.path),
  };
}

/** Paths whose index entry differs from HEAD, unmerged ones included. */
export function stagedPaths(top: string): string[] {
  return splitZ(git(top, ["diff-index", "--cached", "--name-only", "-z", "--no-renames", "HEAD", "--"]));
}

export function unmergedPaths(top: string): string[] {
  const out = splitZ(git(top, ["ls-files", "-u", "-z"]));
  return [...new Set(out.map((rec) => rec.slice(rec.indexOf("\t") + 1)))];
}

/** Staged, unstaged and untracked paths of the target (untracked directories end with `/`). */
export function targetDirty(top: string): string[] {
  return [...dirtyPaths(top)];
}

export function runAm(top: string, mbox: string, extra: string[] = []): GitResult {
  return run(
    top,
    ["am", "--keep-cr", "--empty=keep", "--whitespace=nowarn", "--no-scissors", "--no-3way", "--quiet", mbox],
    extra,
  );
}

export function abortAm(top: string, extra: string[] = []): boolean {
  return run(top, ["am", "--abort"], extra).ok;
}

/** The child commit `git am` stopped at, from the `From <id>` line of the current message. */
export function currentAmCommit(top: string): string | null {
  const r = run(top, ["am", "--show-current-patch=raw"]);
  return /^From ([0-9a-f]{40,64}) /.exec(r.stdout)?.[1] ?? null;
}

/** Paths named by `git apply` errors ("error: X: patch does not apply", "patch failed: X:12"). */
export function failedPaths(stderr: string): string[] {
  const out = new Set<string>();
  for (const line of stderr.split("\n")) {
    const failed = /^error: patch failed: (.*):\d+$/.exec(line);
    const other =
      /^error: (.*): (?:patch does not apply|does not exist in index|already exists in (?:index|working directory)|does not match index|No such file or directory)$/.exec(
        line,
      );
    const path = failed?.[1] ?? other?.[1];
    if (path) out.add(path);
  }
  return [...out].sort();
}

export type PatchMode = "3way" | "check" | "reverse-check";

export function applyPatch(top: string, patch: string, mode: PatchMode, extra: string[] = []): GitResult {
  if (mode === "3way") {
    // A plain apply first: it is all or nothing, and leaves exactly what `--3way` followed by
    // unstaging would (changes unstaged, new files untracked), at a fraction of the cost —
    // `--3way` tries a merge for every file, ~3x slower on a 2,000-file change (bench/RESULTS.md).
    // Only when it does not apply cleanly does the three-way merge run.
    const plain = run(top, ["apply", "--binary", "--whitespace=nowarn", patch], extra);
    if (plain.ok) return { ...plain, plain: true };
  }
  const flags =
    mode === "3way" ? ["--3way", "--binary"] : mode === "check" ? ["--check"] : ["--check", "--reverse"];
  return run(top, ["apply", ...flags, "--whitespace=nowarn", patch], extra);
}

/** Puts index entries back to HEAD (a new file becomes untracked again); the worktree is untouched. */
export function unstage(top: string, paths: readonly string[]): void {
  if (paths.length === 0) return;
  git(top, ["reset", "-q", "--pathspec-from-file=-", "--pathspec-file-nul", "HEAD"], {
    env: LITERAL,
    input: paths.map((p) => `${p}\0`).join(""),
  });
}

/** Past this many bytes of pathspecs the whole tree is listed instead (argument lists have limits). */
const LS_TREE_SPEC_BYTES = 256 * 1024;

/**
 * The blob of each path in `commit` (null when absent or a submodule; a directory reads as
 * `tree:<id>`), from one `ls-tree` walk: looking each path up by name re-reads the trees above
 * it every time, ~10x slower for a 2,000-file patch.
 */
export function treeBlobs(top: string, commit: string, paths: readonly string[]): Map<string, string | null> {
  const out = new Map<string, string | null>(paths.map((p) => [p, null]));
  if (paths.length === 0) return out;
  const args = ["ls-tree", "-r", "-t", "-z", "--full-tree", commit];
  if (paths.reduce((n, p) => n + p.length + 1, 0) <= LS_TREE_SPEC_BYTES) args.push("--", ...paths);
  for (const rec of splitZ(git(top, args, { env: LITERAL }))) {
    // <mode> SP <type> SP <object> TAB <path>
    const tab = rec.indexOf("\t");
    const path = rec.slice(tab + 1);
    if (!out.has(path)) continue;
    const [, type, id] = rec.slice(0, tab).split(" ");
    out.set(path, type === "blob" ? (id ?? null) : type === "tree" ? `tree:${id}` : null);
  }
  return out;
}

/** What each path holds in the worktree now, hashed the way git would store it. */
export function worktreeBlobs(top: string, paths: readonly string[]): Map<string, string | null> {
  const out = new Map<string, string | null>();
  const files: string[] = [];
  for (const p of paths) {
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(join(top, p));
    } catch {
      out.set(p, null);
      continue;
    }
    if (st.isSymbolicLink()) {
      const target = readlinkSync(join(top, p));
      out.set(p, git(top, ["hash-object", "--no-filters", "--stdin"], { input: target }).trim());
    } else if (st.isFile()) files.push(p);
    else out.set(p, "tree:");
  }
  for (let i = 0; i < files.length; i += 200) {
    const chunk = files.slice(i, i + 200);
    const ids = git(top, ["hash-object", "--", ...chunk])
      .trim()
      .split("\n");
    for (const [j, p] of chunk.entries()) out.set(p, ids[j] ?? null);
  }
  return out;
}
