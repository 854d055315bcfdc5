/**
 * One `git` command found in a shell command line, handed from the shell reader
 * (src/targets/shell) to the impact reader (src/git/impact.ts), which asks git
 * which paths the command would overwrite, remove or commit.
 */
export interface GitCall {
  /**
   * Where it runs: "" for the tool call's own directory, a path relative to it or
   * absolute (after `cd DIR` or `git -C DIR`), or null when that cannot be told
   * (`cd "$X"`).
   */
  cwd: string | null;
  /** The words after `git`, global options included (`-c core.hooksPath=…`), `-C DIR` folded into cwd. */
  args: string[];
  /** How the command reads in a refusal, when `args` stands in for words only known at run time. */
  text?: string;
}

/** What a git command would do to uncommitted work, as far as git itself can tell before it runs. */
export interface GitImpact {
  /** The working tree the command runs in (its top), or null when it is not in one. */
  repoTop: string | null;
  /** Dirty paths (relative to repoTop) whose uncommitted bytes the command would overwrite or remove. */
  atRisk: string[];
  /** A commit that skips the pre-commit hook (`-n`, `--no-verify`, `core.hooksPath`): the paths it would commit. */
  committed: string[];
  /**
   * Paths whose staged changes the command drops from the index or replaces (`reset`, `rm --cached`,
   * `add` over a file changed since it was staged): the files stay, the staged version is gone.
   */
  stagedLost: string[];
  /** Dirty paths a `git add` (or `update-index`) stages, for a later commit of the same line. */
  stages: string[];
  /** A commit that skips its hook and commits what the index holds, whatever an earlier call staged. */
  commitsIndex: boolean;
  /** Why the effect could not be worked out; the caller then treats the command as opaque. */
  unknown: string | null;
}
