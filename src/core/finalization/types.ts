/** The end-turn check's findings and facts as data: shared by the verdict and its helpers. */
import type { IndexTag } from "../git/index-flags.js";
import type { TargetFacts } from "../paths/target.js";
import type { UnreachedFacts, UnreachedFinding } from "./unreached.js";

export interface DirtyFinding {
  repo: string;
  /** Relative to `repo`, as Git reports it. */
  path: string;
  /** Git's two-letter status (`XY` of `git status --porcelain`; `??` untracked). */
  state: string;
}

export type UnpushedFinding =
  | { repo: string; branch: string | null; upstream: string; ahead: number; behind?: number }
  | { repo: string; branch: string | null; reason: string };

export interface GitlinkMismatch {
  superproject: string;
  /** The submodule's path relative to the superproject. */
  path: string;
  parentHead: string | null;
  parentIndex: string | null;
  childHead: string | null;
}

export type UnsupportedKind = "outside-roots" | "invalid-root" | "nested-repo" | "symlink-escape";

export interface UnsupportedFinding {
  path: string;
  kind: UnsupportedKind;
  reason: string;
  remedy: string;
}

/** A stash entry this session created that is still in its repository's stash. */
export interface StashFinding {
  repo: string;
  sha: string;
  message: string;
  /** Where `git stash list` shows it now (`stash@{0}`). */
  ref: string;
}

export type HiddenFlag = "skip-worktree" | "assume-unchanged";

/** An owned path whose changes `git status` does not show because of an index flag. */
export interface HiddenFinding {
  repo: string;
  path: string;
  flags: HiddenFlag[];
}

/** An owned path Git ignores: not Git work, so never a failure, but shown as not finalized. */
export interface IgnoredPath {
  repo: string;
  path: string;
}

export type UnverifiableFinding = { path: string; reason: string } | { repo: string; reason: string };

export interface Findings {
  dirty: DirtyFinding[];
  unpushed: UnpushedFinding[];
  gitlinkMismatch: GitlinkMismatch[];
  unsupported: UnsupportedFinding[];
  unverifiable: UnverifiableFinding[];
  stashed: StashFinding[];
  hidden: HiddenFinding[];
  /** Owned work only a local branch, the reflog or a dropped stash holds (issue 37.4). */
  unreached: UnreachedFinding[];
  /** Shown, never failing: see IgnoredPath. */
  ignored: IgnoredPath[];
  /** The ledger lacks the session's `session.started`: its scope cannot be trusted to be whole. */
  incompleteHistory: boolean;
}

export interface DirtyEntry {
  path: string;
  state: string;
}

/** What Git says about HEAD and where it has been pushed. Lists are null when not asked. */
export interface SyncFacts {
  /** Null on an unborn branch (no commit yet). */
  head: string | null;
  /** Null when HEAD is detached. */
  branch: string | null;
  upstream: string | null;
  /** Commits in `@{upstream}..HEAD`; null when there is no usable upstream (none, or gone). */
  ahead: number | null;
  /** Commits in `HEAD..@{upstream}` as last fetched: the remote moved, a plain push would be rejected. */
  behind?: number | null;
  /** Remote-tracking refs that contain HEAD. */
  containedIn: string[] | null;
  remotes: string[] | null;
}

/** A git fact, read by core/git/index-flags.ts; the end-turn facts carry it. */
export type { IndexTag };

export type RepoFacts =
  | {
      top: string;
      ok: true;
      dirty: DirtyEntry[];
      sync: SyncFacts;
      /** Index tags of the owned paths; empty when the repository holds none. */
      tags: IndexTag[];
      /** Ignored records of the status (`dir/` for a whole directory), relative to the top. */
      ignored: string[];
    }
  | { top: string; ok: false; error: string };

export interface GitlinkFact {
  superproject: string;
  path: string;
  parentHead: string | null;
  parentIndex: string | null;
  childHead: string | null;
}

export interface GitFacts {
  /** The repository of each Git-classified owned path, keyed by physical path. */
  pathRepo: Readonly<Record<string, { top: string } | { error: string }>>;
  /** Every repository reached: those holding owned paths, and the superprojects above them. */
  repos: readonly RepoFacts[];
  gitlinks: readonly GitlinkFact[];
  /** Repositories that had to be checked but could not be (a superproject outside the roots). */
  blocked: readonly { repo: string; reason: string }[];
  /** The stash of each repository the session created entries in: commits, newest first. */
  stashes: readonly StashFacts[];
  /** Versions of owned paths in commits nothing pushed reaches; absent when none was looked for. */
  unreached?: readonly UnreachedFacts[];
}

export type StashFacts = { repo: string; present: string[] } | { repo: string; error: string };

/** A `stash.created` event of the session. */
export interface CreatedStash {
  repo: string;
  sha: string;
  message: string;
}

export interface FinalizationInput {
  incompleteHistory: boolean;
  paths: readonly TargetFacts[];
  /** Absolute paths other sessions own: dirt under them is theirs unless this session owns closer. */
  peerOwned: readonly string[];
  /** Stash entries the session's commands created; those still stashed fail the check. */
  createdStashes: readonly CreatedStash[];
  git: GitFacts;
}
