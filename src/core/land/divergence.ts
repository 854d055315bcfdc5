import { PLAIN, type Printer, spanned } from "../printed.js";
/** Where the checkout's branch stands against its upstream's last fetched tip, for `tandem doctor`. */
export interface BranchStanding {
  branch: string;
  upstream: string;
  /** Commits on the branch and not on the upstream, and the other way round. */
  ahead: number;
  behind: number;
  /** pid of a `tandem land` of this checkout running now, if any. */
  landing: number | null;
}

export interface DivergenceFinding {
  level: "ok" | "info" | "problem";
  detail: string;
  fix?: string;
}

/**
 * Pure: a branch that has diverged from its upstream with nobody landing it is a problem — a plain
 * `git push` will be rejected and `git pull` is not safe in a shared checkout; `tandem land` is.
 */
export function divergenceFinding(b: BranchStanding, p: Printer = PLAIN): DivergenceFinding {
  const land = spanned(p, "land");
  const where = `${b.branch} against ${b.upstream} (as last fetched)`;
  if (b.landing !== null)
    return { level: "ok", detail: `${where}: a landing is in progress (pid ${b.landing})` };
  if (b.ahead > 0 && b.behind > 0)
    return {
      level: "problem",
      detail: `${where} has diverged: ${b.ahead} local commit(s) not pushed, ${b.behind} upstream commit(s) not here, and no landing is running`,
      fix: `run ${land}: it rebases the local commits in a private worktree and pushes, keeping everyone's uncommitted files (never \`git pull\` or \`git stash\` in a shared checkout)`,
    };
  if (b.ahead > 0)
    return {
      level: "info",
      detail: `${where}: ${b.ahead} local commit(s) not pushed yet`,
      fix: `run ${land}`,
    };
  if (b.behind > 0)
    return {
      level: "info",
      detail: `${where}: ${b.behind} upstream commit(s) not here yet`,
      fix: `${land} moves the checkout forward without touching uncommitted files`,
    };
  return { level: "ok", detail: `${where}: in step` };
}
