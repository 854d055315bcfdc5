import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { ConflictCommit } from "../core/land/result.js";
import { git, gitStatus, splitZ } from "../git/run.js";

/** Hooks stay off in the private worktree: Tandem's own would record it as a session's checkout. */
const QUIET = ["-c", "core.hooksPath=/dev/null", "-c", "advice.detachedHead=false"];

export type RebaseAnswer =
  | { kind: "rebased"; head: string }
  | { kind: "conflicted"; commit: ConflictCommit; paths: string[] };

/**
 * Rebases `local`'s commits onto `onto` in a detached worktree of its own under the state dir, so
 * the shared checkout never sees a half-done rebase; the worktree is removed whatever happens.
 */
export function rebaseInPrivate(top: string, stateDir: string, local: string, onto: string): RebaseAnswer {
  const dir = join(stateDir, "tmp", `land-${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(join(stateDir, "tmp"), { recursive: true });
  git(top, [...QUIET, "worktree", "add", "--quiet", "--detach", "--", dir, local]);
  try {
    const r = gitStatus(dir, [...QUIET, "rebase", "--no-autostash", "--quiet", onto]);
    if (r.status === 0) return { kind: "rebased", head: git(dir, ["rev-parse", "HEAD"]).trim() };
    const conflict = stoppedAt(dir);
    gitStatus(dir, [...QUIET, "rebase", "--abort"]);
    if (!conflict)
      throw new Error(`git rebase failed: ${r.stderr.trim().split("\n")[0] ?? `exit ${r.status}`}`);
    return conflict;
  } finally {
    gitStatus(top, ["worktree", "remove", "--force", "--force", "--", dir]);
  }
}

/** The commit a stopped rebase could not apply and the paths left unmerged; null if none. */
function stoppedAt(dir: string): RebaseAnswer | null {
  const head = gitStatus(dir, ["rev-parse", "--verify", "-q", "REBASE_HEAD"]);
  const paths = splitZ(git(dir, ["diff", "--name-only", "-z", "--diff-filter=U"]));
  if (head.status !== 0 && paths.length === 0) return null;
  const sha = head.stdout.trim();
  const subject = sha ? git(dir, ["log", "-1", "--format=%s", sha, "--"]).trim() : "";
  return { kind: "conflicted", commit: { sha, subject }, paths };
}
