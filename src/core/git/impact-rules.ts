/**
 * The plan a git command line is turned into: which dirty entries it puts at risk
 * (or commits), as rules over `git status` and the queries that name candidate paths.
 */
import { flag, type ParsedArgv, value } from "./argv.js";

/** Which dirty entries a rule selects, by their `git status` columns. */
export interface Pick {
  /** The index differs from HEAD (X column; unmerged entries too). */
  staged?: boolean;
  /** The working tree differs from the index (Y column). */
  unstaged?: boolean;
  untracked?: boolean;
  ignored?: boolean;
  /**
   * Staged, then changed again: the index differs from HEAD *and* from the working tree, so the
   * staged version exists nowhere else. Staging the file again replaces it.
   */
  stagedThenChanged?: boolean;
}

export const STAGED: Pick = { staged: true };
export const UNSTAGED: Pick = { unstaged: true };
export const TRACKED: Pick = { staged: true, unstaged: true };
export const UNTRACKED: Pick = { untracked: true };
export const DIRTY: Pick = { staged: true, unstaged: true, untracked: true };
export const STAGED_THEN_CHANGED: Pick = { stagedThenChanged: true };

/** The command's pathspecs (relative to its directory); none at all means the whole tree. */
export interface Pathspec {
  specs: string[];
  /** `--pathspec-from-file=FILE` (`-` is stdin: unreadable), one per line or NUL-separated. */
  fromFile: { file: string; nul: boolean } | null;
}

export const WHOLE_TREE: Pathspec = { specs: [], fromFile: null };

/** The pathspec of a parsed command: these operands, or `--pathspec-from-file`. */
export function pathspecOf(argv: ParsedArgv, specs: string[]): Pathspec {
  const file = value(argv, "pathspec-from-file");
  return { specs, fromFile: file === undefined ? null : { file, nul: flag(argv, "pathspec-file-nul") } };
}

/** Paths named as files, not pathspecs (plumbing takes them literally), relative to the command's directory. */
export function literalPaths(paths: readonly string[]): Pathspec {
  return { specs: paths.map((p) => `:(literal)${p}`), fromFile: null };
}

export function hasPathspec(p: Pathspec): boolean {
  return p.specs.length > 0 || p.fromFile !== null;
}

/** Where a rule's candidate paths come from; the picked dirty entries among them are the result. */
export type Source =
  /** Every picked dirty entry. */
  | { kind: "dirty" }
  /** Paths where the working tree differs from a tree (`diff --name-only REV`). */
  | { kind: "differs"; rev: string }
  /** Paths that differ between two commits, or from their merge base to `to` (`diff A...B`). */
  | { kind: "changed"; from: string; to: string; mergeBase: boolean }
  /** Paths the given commits or ranges change (`log --no-walk --name-only`), as cherry-pick walks them. */
  | { kind: "commits"; revs: string[] }
  /** Paths a stash entry changes against its base, and the untracked files it holds. */
  | { kind: "stash"; rev: string }
  /** Paths patch files touch: `git apply --numstat -z` with these arguments. */
  | { kind: "patch"; args: string[] }
  /** Paths `git clean` would remove: these arguments after `clean -n`; a directory stands for what is under it. */
  | { kind: "clean"; args: string[] }
  /** Literal paths relative to the command's directory; `under` takes everything below them too. */
  | { kind: "paths"; paths: { path: string; under: boolean }[] };

/**
 * Where a rule's paths go: `atRisk`, files whose uncommitted bytes are overwritten or removed;
 * `committed`, paths a commit that skips its hook would commit; `stagedLost`, paths whose staged
 * changes are dropped from the index or replaced (the files stay); `stages`, paths `git add` stages.
 */
export type Into = "atRisk" | "committed" | "stagedLost" | "stages";

export interface Rule {
  pick: Pick;
  source: Source;
  /** Limited to the command's pathspec (otherwise the whole tree). */
  scoped: boolean;
  /** Where this rule's paths go, when not where the effect's go (`git add` also replaces staged versions). */
  into?: Into;
}

export type Effect =
  | { kind: "none" }
  /** `alias`: the subcommand git does not know, which the repository's config may define as an alias. */
  | { kind: "unknown"; reason: string; alias?: string }
  /**
   * Each rule's paths go `into` (its own or the effect's). `commitsIndex`: a commit that skips its
   * hook and commits what the index holds, so also what an earlier `git add` of the line stages.
   */
  | { kind: "rules"; into: Into; pathspec: Pathspec; rules: Rule[]; commitsIndex?: boolean }
  /** `git checkout NAME …` without `--`: a branch switch when NAME names a commit, pathspecs otherwise. */
  | { kind: "ref-or-path"; name: string; guess: boolean; asRef: Effect; asPath: Effect }
  /** The effect depends on configuration (`pull.rebase`, `*.autostash`): plan again with it. */
  | { kind: "config" };

export const NONE: Effect = { kind: "none" };

export function unknown(reason: string): Effect {
  return { kind: "unknown", reason };
}

export function rule(pick: Pick, source: Source = { kind: "dirty" }, scoped = false): Rule {
  return { pick, source, scoped };
}

/** Dirty entries at risk within the pathspec. */
export function atRiskIn(pathspec: Pathspec, ...rules: Rule[]): Effect {
  return rules.length === 0 ? NONE : { kind: "rules", into: "atRisk", pathspec, rules };
}

/** Paths within the pathspec whose staged changes the command drops from the index. */
export function stagedLostIn(pathspec: Pathspec, ...rules: Rule[]): Effect {
  return rules.length === 0 ? NONE : { kind: "rules", into: "stagedLost", pathspec, rules };
}

/** Dirty entries at risk anywhere in the tree. */
export function atRisk(...rules: Rule[]): Effect {
  return atRiskIn(WHOLE_TREE, ...rules);
}

/** Dirty entries (picked) among the paths that differ between HEAD and `to`. */
export function changedSince(pick: Pick, to: string, mergeBase = false): Rule {
  return rule(pick, { kind: "changed", from: "HEAD", to, mergeBase });
}
