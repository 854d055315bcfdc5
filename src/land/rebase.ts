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
 * A detached worktree of the repository under the state dir, where landing rebases, checks and
 * reorders commits: the shared checkout never sees a half-done rebase. `close` removes it.
 */
export class PrivateTree {
  private constructor(
    private readonly top: string,
    readonly dir: string,
  ) {}

  static open(top: string, stateDir: string, at: string): PrivateTree {
    const dir = join(stateDir, "tmp", `land-${process.pid}-${Date.now().toString(36)}`);
    mkdirSync(join(stateDir, "tmp"), { recursive: true });
    git(top, [...QUIET, "worktree", "add", "--quiet", "--detach", "--", dir, at]);
    return new PrivateTree(top, dir);
  }

  close(): void {
    gitStatus(this.top, ["worktree", "remove", "--force", "--force", "--", this.dir]);
  }

  head(): string {
    return git(this.dir, ["rev-parse", "HEAD"]).trim();
  }

  /** Rebases what is checked out onto `onto`; a conflict is aborted and reported. */
  rebase(onto: string): RebaseAnswer {
    const r = gitStatus(this.dir, [...QUIET, "rebase", "--no-autostash", "--quiet", onto]);
    if (r.status === 0) return { kind: "rebased", head: this.head() };
    const conflict = stoppedAt(this.dir);
    gitStatus(this.dir, [...QUIET, "rebase", "--abort"]);
    if (!conflict)
      throw new Error(`git rebase failed: ${r.stderr.trim().split("\n")[0] ?? `exit ${r.status}`}`);
    return conflict;
  }

  /**
   * Checks out `base` (dropping whatever a previous check left, ignored files kept so a check's
   * installs are reused) and applies `commits` on it in order; null when one does not apply.
   */
  stack(base: string, commits: readonly string[]): string | null {
    git(this.dir, [...QUIET, "checkout", "--quiet", "--force", "--detach", base]);
    git(this.dir, ["clean", "-fdq"]);
    if (commits.length === 0) return base;
    const r = gitStatus(this.dir, [...QUIET, "cherry-pick", "--allow-empty", ...commits]);
    if (r.status === 0) return this.head();
    gitStatus(this.dir, [...QUIET, "cherry-pick", "--abort"]);
    return null;
  }
}

/** Lands `local`'s commits onto `onto` in a private worktree (no check): the rebased head or the conflict. */
export function rebaseInPrivate(top: string, stateDir: string, local: string, onto: string): RebaseAnswer {
  const tree = PrivateTree.open(top, stateDir, local);
  try {
    return tree.rebase(onto);
  } finally {
    tree.close();
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
