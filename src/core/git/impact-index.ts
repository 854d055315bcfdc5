/**
 * Plans for the commands that stage the working tree into the index: `add` and the
 * plumbing under it, `update-index`. What they stage matters to a later commit of the
 * same command line that skips its hook; what they replace matters on its own: a path
 * staged and then changed again has a staged version that exists only in the index.
 */
import { allOperands, flag, given, optionSpec, parseArgv, values } from "./argv.js";
import {
  type Effect,
  hasPathspec,
  literalPaths,
  NONE,
  type Pathspec,
  type Pick,
  pathspecOf,
  type Rule,
  rule,
  STAGED,
  STAGED_THEN_CHANGED,
  TRACKED,
  unknown,
  WHOLE_TREE,
} from "./impact-rules.js";

const ADD = optionSpec(
  "dry-run/n verbose/v force/f interactive/i patch/p edit/e update/u all/A ignore-removal intent-to-add/N refresh ignore-errors ignore-missing sparse chmod= renormalize warn-embedded-repo pathspec-from-file= pathspec-file-nul",
);
const UPDATE_INDEX = optionSpec(
  "add remove force-remove refresh really-refresh -q unmerged ignore-missing ignore-submodules cacheinfo= index-info chmod= assume-unchanged skip-worktree fsmonitor-valid ignore-skip-worktree-entries again/g unresolve info-only force-untracked-cache split-index untracked-cache fsmonitor index-version= stdin -z verbose clear-resolve-undo",
);

/**
 * Staging the dirty entries `pick` takes within the pathspec: they are what a later commit takes,
 * and a staged version among them that the file no longer matches is replaced.
 */
function staging(pathspec: Pathspec, pick: Pick, ...more: Rule[]): Effect {
  return {
    kind: "rules",
    into: "stages",
    pathspec,
    rules: [
      rule(pick, { kind: "dirty" }, true),
      { ...rule(STAGED_THEN_CHANGED, { kind: "dirty" }, true), into: "stagedLost" },
      ...more,
    ],
  };
}

export function planAdd(args: readonly string[]): Effect {
  const parsed = parseArgv(args, ADD);
  if (!parsed.ok) return unknown(`git add: ${parsed.reason}`);
  const a = parsed.argv;
  // A dry run, a stat refresh, or empty intent-to-add entries for new files: no staged version changes.
  if (flag(a, "dry-run", "refresh", "intent-to-add")) return NONE;
  const pathspec = pathspecOf(a, allOperands(a));
  const tracked = flag(a, "update", "renormalize");
  // `--no-ignore-removal` is `--all` spelled the other way round.
  const all = flag(a, "all") || (given(a, "ignore-removal") && !flag(a, "ignore-removal"));
  const whole = tracked || all || flag(a, "patch", "interactive", "edit");
  if (!hasPathspec(pathspec) && !whole) return NONE; // git says "Nothing specified, nothing added"
  const pick: Pick = tracked ? TRACKED : { ...TRACKED, untracked: true, ignored: flag(a, "force") };
  return staging(pathspec, pick);
}

/**
 * `update-index`: with `--force-remove` the named entries leave the index (a staged change, and a
 * newly added file's staged bytes, exist nowhere else); `--cacheinfo` puts another blob in an
 * entry's place; any other named path is staged from its file, like `git add`, and `--again`
 * stages every path whose entry differs from HEAD. A mode flag (`--assume-unchanged` …) only
 * marks the paths after it, but those before it are staged: the paths are counted either way.
 * Entries from stdin (`--stdin`, `--index-info`) cannot be read from the words.
 */
export function planUpdateIndex(args: readonly string[]): Effect {
  const parsed = parseArgv(args, UPDATE_INDEX);
  if (!parsed.ok) return unknown(`git update-index: ${parsed.reason}`);
  const a = parsed.argv;
  if (flag(a, "stdin", "index-info"))
    return unknown("git update-index --stdin/--index-info takes entries from outside its arguments");
  const paths = allOperands(a);
  // `--cacheinfo MODE,OBJECT,PATH` names PATH in its value; in the three-word form
  // (`--cacheinfo MODE OBJECT PATH`) PATH is among the operands, so every operand counts as replaced.
  const infos = values(a, "cacheinfo");
  const replaced = [
    ...infos.filter((v) => v.includes(",")).map((v) => v.split(",").slice(2).join(",")),
    ...(infos.some((v) => !v.includes(",")) ? paths : []),
  ];
  if (flag(a, "force-remove")) {
    const all = [...paths, ...replaced];
    return all.length === 0
      ? NONE
      : {
          kind: "rules",
          into: "stagedLost",
          pathspec: literalPaths(all),
          rules: [rule(STAGED, { kind: "dirty" }, true)],
        };
  }
  const overwritten: Rule[] =
    replaced.length === 0
      ? []
      : [
          {
            ...rule(STAGED, { kind: "paths", paths: replaced.map((path) => ({ path, under: false })) }),
            into: "stagedLost",
          },
        ];
  const again: Rule[] = flag(a, "again") ? [{ ...rule(STAGED_THEN_CHANGED), into: "stagedLost" }] : [];
  if (paths.length === 0) {
    const rules = [...overwritten, ...again];
    return rules.length === 0 ? NONE : { kind: "rules", into: "stagedLost", pathspec: WHOLE_TREE, rules };
  }
  // Without --add, a file the index does not track is refused, not staged.
  const pick: Pick = flag(a, "add") ? { ...TRACKED, untracked: true } : TRACKED;
  return staging(literalPaths(paths), pick, ...overwritten, ...again);
}
