/**
 * A git command whose arguments come from somewhere the reader cannot see (`… | xargs git
 * checkout`) is judged as the most its subcommand can destroy: these arguments stand in
 * for the unknown ones (for `add`, staging everything: what a later commit past its hook
 * takes, and every staged version changed since). A subcommand not listed only reads, or
 * is left to the safety net.
 */
const WORST: Record<string, string[]> = {
  checkout: ["-f", "HEAD", "--", ":/"],
  restore: ["--source=HEAD", "--staged", "--worktree", "--", ":/"],
  switch: ["-f", "HEAD"],
  reset: ["--hard"],
  stash: ["push", "--all"],
  clean: ["-f", "-f", "-d", "-x"],
  rm: ["-r", "-f", "--", ":/"],
  "read-tree": ["--reset", "-u", "HEAD"],
  "checkout-index": ["-f", "-a"],
  add: ["-A"],
};

/** The words standing in for `git SUB` with unknown arguments, or null when none are listed. */
export function worstCaseArgs(sub: string | undefined): string[] | null {
  // `xargs git` with no subcommand: the subcommand itself is read from the input.
  if (sub === undefined) return ["reset", "--hard"];
  return Object.hasOwn(WORST, sub) ? [sub, ...WORST[sub]!] : null;
}
