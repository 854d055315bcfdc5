/**
 * What a git command line would do to uncommitted work, planned from its words
 * alone: the queries (over `git status`, diffs, dry runs) whose answers name the
 * paths at risk. Pure; src/git/impact.ts runs the plan.
 */
import { type AliasMap, expandAlias } from "./alias.js";
import { type GitGlobals, parseGlobals } from "./globals.js";
import {
  type GitConfig,
  planAm,
  planApply,
  planCommit,
  planMerge,
  planPick,
  planPull,
  planRebase,
} from "./impact-history.js";
import { planAdd, planUpdateIndex } from "./impact-index.js";
import { planCheckoutIndex, planReadTree } from "./impact-plumbing.js";
import { type Effect, NONE, unknown } from "./impact-rules.js";
import {
  planCheckout,
  planClean,
  planMv,
  planReset,
  planRestore,
  planRm,
  planStash,
  planSwitch,
} from "./impact-worktree.js";

export { CONFIG_KEYS, type GitConfig } from "./impact-history.js";
export {
  type Effect,
  type Into,
  NONE,
  type Pathspec,
  type Pick,
  type Rule,
  type Source,
} from "./impact-rules.js";

export interface GitImpactPlan {
  effect: Effect;
  globals: GitGlobals;
}

/** Subcommands that leave the working tree and staged changes alone (they read, or write refs, objects or config). */
const HARMLESS = new Set(
  (
    "status log diff show branch tag rev-parse ls-files ls-tree ls-remote grep blame annotate describe " +
    "shortlog remote fetch push config reflog cat-file rev-list show-ref for-each-ref merge-base " +
    "name-rev var version help count-objects fsck check-ignore check-attr check-ref-format whatchanged " +
    "cherry range-diff diff-tree diff-files diff-index notes init clone gc prune repack maintenance " +
    "update-ref symbolic-ref hash-object write-tree commit-tree mktree mktag verify-commit verify-tag " +
    "show-branch"
  ).split(" "),
);

type Planner = (args: readonly string[], globals: GitGlobals, config?: GitConfig) => Effect;

const PLANNERS: Record<string, Planner> = {
  checkout: planCheckout,
  restore: planRestore,
  switch: planSwitch,
  reset: planReset,
  stash: planStash,
  clean: planClean,
  rm: planRm,
  mv: planMv,
  merge: (args, _g, config) => planMerge(args, config),
  pull: (args, _g, config) => planPull(args, config),
  rebase: (args, _g, config) => planRebase(args, config),
  "cherry-pick": (args) => planPick("cherry-pick", args),
  revert: (args) => planPick("revert", args),
  apply: planApply,
  add: planAdd,
  stage: planAdd, // git's own other name for add
  am: planAm,
  commit: (args, globals) => planCommit(args, globals),
  "read-tree": planReadTree,
  "checkout-index": planCheckoutIndex,
  "update-index": planUpdateIndex,
  // Only removing or moving a worktree touches files; a bisect run runs commands.
  worktree: (args) =>
    args[0] === "remove" || args[0] === "move" ? unknown(`git worktree ${args[0]}`) : NONE,
  bisect: (args) => (args[0] === "run" ? unknown("git bisect run runs commands of its own") : NONE),
};

const EMPTY_GLOBALS: GitGlobals = { configArgs: [], config: [], pathspecArgs: [], chdir: [] };

/** Git itself stops after ten levels of aliases that expand to aliases; so does Tandem. */
const ALIAS_DEPTH = 10;

/**
 * Plans `git ARGS` (the words after `git`). An effect of kind `config` asks for the
 * settings named by CONFIG_KEYS: plan again with them. An `unknown` effect naming an
 * `alias` asks for the repository's aliases: plan again with them (`-c alias.*` on the
 * command line is read here).
 */
export function planGitImpact(
  args: readonly string[],
  config?: GitConfig,
  aliases?: AliasMap,
  depth = 0,
): GitImpactPlan {
  const parsed = parseGlobals(args);
  if (parsed.ok === "exits") return { effect: NONE, globals: EMPTY_GLOBALS };
  if (!parsed.ok) return { effect: unknown(parsed.reason), globals: EMPTY_GLOBALS };
  const { globals, rest } = parsed;
  const [sub, ...subArgs] = rest;
  if (sub === undefined) return { effect: NONE, globals }; // git alone prints its usage
  if (isBuiltin(sub)) return { effect: planSubcommand(sub, subArgs, globals, config), globals };
  const value = aliasValue(sub, globals, aliases);
  if (value === undefined) {
    const reason = `git ${sub} is not a command whose effect Tandem can work out`;
    const effect: Effect = { kind: "unknown", reason, ...(aliases === undefined ? { alias: sub } : {}) };
    return { effect, globals };
  }
  const expansion = expandAlias(value);
  if (expansion.kind === "shell")
    return { effect: unknown(`git ${sub} is an alias that runs a shell command`), globals };
  if (expansion.kind === "unreadable" || depth >= ALIAS_DEPTH)
    return { effect: unknown(`the alias git ${sub} cannot be expanded`), globals };
  // The alias's words take the subcommand's place, after the command line's own options.
  const before = args.slice(0, args.length - rest.length);
  return planGitImpact([...before, ...expansion.words, ...subArgs], config, aliases, depth + 1);
}

/** The command line's `-c alias.NAME=…` (the last one wins), else the repository's. */
function aliasValue(sub: string, globals: GitGlobals, aliases?: AliasMap): string | undefined {
  const key = `alias.${sub.toLowerCase()}`;
  const given = globals.config.filter((c) => c.key.toLowerCase() === key).at(-1);
  if (given) return given.value ?? undefined;
  return aliases?.get(sub.toLowerCase());
}

/** Names git runs as its own command even when an alias of the same name exists. */
function isBuiltin(sub: string): boolean {
  return HARMLESS.has(sub) || Object.hasOwn(PLANNERS, sub) || OTHER_BUILTINS.has(sub);
}

/** Commands Tandem does not read but git never takes as an alias either. */
const OTHER_BUILTINS = new Set(
  (
    "archive bundle citool format-patch gui instaweb request-pull send-email sparse-checkout submodule " +
    "backfill credential fast-export fast-import filter-branch mergetool replace rerere " +
    "difftool init-db merge-file merge-index merge-one-file merge-tree pack-objects " +
    "prune-packed read-tree unpack-objects checkout-index update-index"
  ).split(" "),
);

function planSubcommand(sub: string, args: string[], globals: GitGlobals, config?: GitConfig): Effect {
  if (HARMLESS.has(sub)) {
    // `git diff --output=FILE` and friends write a file of their own.
    if (args.some((arg) => arg.startsWith("--output"))) return unknown(`git ${sub} --output writes a file`);
    return NONE;
  }
  const planner = Object.hasOwn(PLANNERS, sub) ? PLANNERS[sub] : undefined;
  if (planner) return planner(args, globals, config);
  // A plumbing command that writes files, or one Tandem does not read.
  return unknown(`git ${sub} is not a command whose effect Tandem can work out`);
}

/** What the first query (`rev-parse`, which finds the top) is asked to resolve for this effect. */
export interface RevisionCheck {
  /** Resolved with `--verify`: a checkout's first word as a commit, or a stash's untracked part. */
  verify: string | null;
  /** Remote-tracking refs git would guess a new branch from (`--glob`). */
  glob: string | null;
}

export function revisionsToCheck(effect: Effect): RevisionCheck {
  if (effect.kind === "ref-or-path") {
    const plain = !/[*?[\\]/.test(effect.name);
    return {
      verify: `${effect.name}^{commit}`,
      glob: effect.guess && plain ? `refs/remotes/*/${effect.name}` : null,
    };
  }
  if (effect.kind === "rules") {
    const stash = effect.rules.find((r) => r.source.kind === "stash")?.source;
    if (stash?.kind === "stash") return { verify: `${stash.rev}^3`, glob: null };
  }
  return { verify: null, glob: null };
}

/** The effect with every query that named `from` naming `to` instead (a guessed branch's remote ref). */
export function retarget(effect: Effect, from: string, to: string): Effect {
  if (effect.kind !== "rules") return effect;
  const rules = effect.rules.map((r) => {
    const s = r.source;
    if (s.kind === "changed" && s.to === from) return { ...r, source: { ...s, to } };
    if (s.kind === "differs" && s.rev === from) return { ...r, source: { ...s, rev: to } };
    return r;
  });
  return { ...effect, rules };
}
