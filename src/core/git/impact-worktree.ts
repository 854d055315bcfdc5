/**
 * Plans for the git commands that rewrite the working tree from the index or a
 * commit: checkout, restore, switch, reset, stash, clean, rm, mv.
 */
import { posix } from "node:path";
import {
  allOperands,
  count,
  flag,
  given,
  lastOf,
  optionSpec,
  type ParsedArgv,
  parseArgv,
  value,
  values,
} from "./argv.js";
import {
  atRisk,
  atRiskIn,
  changedSince,
  DIRTY,
  type Effect,
  hasPathspec,
  NONE,
  type Pathspec,
  type Pick,
  pathspecOf,
  rule,
  STAGED,
  stagedLostIn,
  TRACKED,
  UNSTAGED,
  UNTRACKED,
  unknown,
  WHOLE_TREE,
} from "./impact-rules.js";

const PATCH = "patch/p unified/U= inter-hunk-context=";
const PATHSPEC_FILE = "pathspec-from-file= pathspec-file-nul";
const CHECKOUT = optionSpec(
  `quiet/q progress force/f merge/m conflict= -b= -B= -l detach/d track/t? no-track guess orphan= ours/2 theirs/3 ignore-skip-worktree-bits ignore-other-worktrees overwrite-ignore recurse-submodules? overlay ${PATCH} ${PATHSPEC_FILE}`,
);
const RESTORE = optionSpec(
  `source/s= staged/S worktree/W ignore-unmerged overlay quiet/q recurse-submodules? progress merge/m conflict= ours/2 theirs/3 ignore-skip-worktree-bits ${PATCH} ${PATHSPEC_FILE}`,
);
const SWITCH = optionSpec(
  "create/c= force-create/C= guess discard-changes force/f detach/d merge/m conflict= quiet/q progress track/t? no-track orphan= ignore-other-worktrees recurse-submodules?",
);
const RESET = optionSpec(
  `quiet/q refresh mixed soft hard merge keep recurse-submodules? intent-to-add/N ${PATCH} ${PATHSPEC_FILE}`,
);
const STASH_PUSH = optionSpec(
  `patch/p staged/S keep-index/k quiet/q include-untracked/u all/a message/m= ${PATHSPEC_FILE}`,
);
const STASH_APPLY = optionSpec("index quiet/q");
const CLEAN = optionSpec("quiet/q dry-run/n force/f interactive/i -d exclude/e= -x -X");
const RM = optionSpec(`dry-run/n quiet/q cached force/f -r ignore-unmatch sparse ${PATHSPEC_FILE}`);
const MV = optionSpec("verbose/v dry-run/n force/f -k sparse");

function parsed(command: string, args: readonly string[], spec: ReturnType<typeof optionSpec>) {
  const result = parseArgv(args, spec);
  return result.ok ? result.argv : unknown(`git ${command}: ${result.reason}`);
}

const isEffect = (x: ParsedArgv | Effect): x is Effect => "kind" in x;

/**
 * A branch switch. Unforced, git carries local changes over or refuses, and refuses to
 * overwrite untracked files: nothing is lost. Forced, every tracked change goes, and so do
 * untracked files the target tracks. `--merge` merges local changes into the files that differ.
 */
function switchTo(target: string, force: boolean, merge: boolean): Effect {
  if (force) return atRisk(rule(TRACKED), changedSince(UNTRACKED, target));
  if (merge) return atRisk(changedSince(DIRTY, target));
  return NONE;
}

/** Files rewritten from the index (only unstaged bytes go) or from a tree (whatever differs from it). */
function restoreFrom(source: string | null, pathspec: Pathspec): Effect {
  if (source === null) return atRiskIn(pathspec, rule(UNSTAGED, { kind: "dirty" }, true));
  return atRiskIn(pathspec, rule(DIRTY, { kind: "differs", rev: source }, true));
}

const revName = (name: string) => (name === "-" ? "@{-1}" : name);

export function planCheckout(args: readonly string[]): Effect {
  const a = parsed("checkout", args, CHECKOUT);
  if (isEffect(a)) return a;
  const force = flag(a, "force");
  const merge = flag(a, "merge") || value(a, "conflict") !== undefined;
  const patch = flag(a, "patch");
  const { operands, afterDashDash } = a;
  const switching = (target: string) =>
    patch ? restoreFrom(target, WHOLE_TREE) : switchTo(target, force, merge);
  const creates = ["-b", "-B", "orphan"].some((name) => value(a, name) !== undefined);
  if (creates || flag(a, "detach")) {
    return switchTo(revName(operands[0] ?? "HEAD"), force, merge);
  }
  if (value(a, "pathspec-from-file") !== undefined) {
    // git refuses pathspec arguments next to the file; the one operand is the tree to read.
    if (operands.length > 1 || afterDashDash?.length) return NONE;
    return restoreFrom(operands[0] === undefined ? null : revName(operands[0]), pathspecOf(a, []));
  }
  if (afterDashDash !== null) {
    if (operands.length > 1) return NONE; // git refuses: one revision at most before `--`
    const source = operands[0] === undefined ? null : revName(operands[0]);
    if (afterDashDash.length > 0) return restoreFrom(source, { specs: afterDashDash, fromFile: null });
    return patch ? restoreFrom(source, WHOLE_TREE) : switchTo(source ?? "HEAD", force, merge);
  }
  if (operands.length === 0) return patch ? restoreFrom(null, WHOLE_TREE) : switchTo("HEAD", force, merge);
  const [first, ...rest] = operands as [string, ...string[]];
  const asRef = rest.length === 0 ? switching(revName(first)) : restoreFrom(revName(first), spec(rest));
  if (first === "-") return asRef;
  return {
    kind: "ref-or-path",
    name: first,
    // git guesses a new branch from a remote one only for a lone name (`--no-guess` turns it off).
    guess: rest.length === 0 && (flag(a, "guess") || !given(a, "guess")),
    asRef,
    asPath: restoreFrom(null, spec(operands)),
  };
}

const spec = (specs: string[]): Pathspec => ({ specs, fromFile: null });

export function planRestore(args: readonly string[]): Effect {
  const a = parsed("restore", args, RESTORE);
  if (isEffect(a)) return a;
  const staged = flag(a, "staged");
  const pathspec = pathspecOf(a, allOperands(a));
  if (!hasPathspec(pathspec) && !flag(a, "patch")) return NONE; // git refuses without paths
  // The index only: its staged changes within the pathspec are replaced by the source's entries.
  if (staged && !flag(a, "worktree")) return unstaging(pathspec);
  return restoreFrom(value(a, "source") ?? (staged ? "HEAD" : null), pathspec);
}

/**
 * A command that rewrites index entries within the pathspec from a tree, leaving the files: a
 * staged change there is dropped (an entry equal to HEAD's loses nothing: HEAD still has it).
 */
function unstaging(pathspec: Pathspec): Effect {
  return stagedLostIn(pathspec, rule(STAGED, { kind: "dirty" }, hasPathspec(pathspec)));
}

export function planSwitch(args: readonly string[]): Effect {
  const a = parsed("switch", args, SWITCH);
  if (isEffect(a)) return a;
  const force = flag(a, "force", "discard-changes");
  const merge = flag(a, "merge") || value(a, "conflict") !== undefined;
  // An orphan branch starts from the empty tree: forced, every tracked change goes.
  if (value(a, "orphan") !== undefined) return force ? atRisk(rule(TRACKED)) : NONE;
  const creates = value(a, "create") !== undefined || value(a, "force-create") !== undefined;
  const target = a.operands[0] ?? (creates || flag(a, "detach") ? "HEAD" : undefined);
  if (target === undefined) return NONE; // git refuses: no branch named
  return switchTo(revName(target), force, merge);
}

export function planReset(args: readonly string[]): Effect {
  const a = parsed("reset", args, RESET);
  if (isEffect(a)) return a;
  const mode = lastOf(a, "soft", "mixed", "hard", "merge", "keep");
  if (mode === undefined || mode === "mixed") return mixedReset(a);
  const paths = a.operands.length > 1 || (a.afterDashDash?.length ?? 0) > 0;
  if (paths || value(a, "pathspec-from-file") !== undefined) return NONE; // git refuses paths here
  if (mode === "soft") return NONE; // HEAD moves; the index and the files stay
  const target = a.operands[0] ?? "HEAD";
  if (mode === "hard") return atRisk(rule(TRACKED), changedSince(UNTRACKED, target));
  // --merge also drops staged changes the working tree matches; --keep refuses over any it would touch.
  if (mode === "merge") return atRisk(rule(STAGED), changedSince(DIRTY, target));
  return atRisk(changedSince(DIRTY, target));
}

/**
 * A mixed reset (`git reset [TREE] [--] [PATHS]`, `-p`): index entries become TREE's, within the
 * paths or everywhere. The first operand without `--` is a tree when it names a commit, else a path.
 */
function mixedReset(a: ParsedArgv): Effect {
  const { operands, afterDashDash } = a;
  const fromFile = value(a, "pathspec-from-file") !== undefined;
  if (afterDashDash !== null || fromFile) {
    if (operands.length > 1) return NONE; // git refuses: one tree at most before `--`
    return unstaging(pathspecOf(a, afterDashDash ?? []));
  }
  if (operands.length === 0) return unstaging(WHOLE_TREE);
  const [first, ...rest] = operands as [string, ...string[]];
  const asRef = unstaging(spec(rest));
  if (first === "-") return asRef;
  return { kind: "ref-or-path", name: first, guess: false, asRef, asPath: unstaging(spec(operands)) };
}

export function planStash(args: readonly string[]): Effect {
  const [sub, ...rest] = args;
  if (sub === undefined || sub.startsWith("-")) return stashPush("stash", args, true);
  if (sub === "push") return stashPush("stash push", rest, true);
  if (sub === "save") return stashPush("stash save", rest, false);
  if (sub === "pop" || sub === "apply") return stashApply(sub, rest);
  // list/show/drop/clear/branch/create/store leave the working tree alone (drop and clear lose
  // stashes, not files); any other word git refuses.
  return NONE;
}

/** What a stash takes out of the working tree: tracked changes (or only unstaged ones with --keep-index). */
function stashPush(command: string, args: readonly string[], pathspecs: boolean): Effect {
  const a = parsed(command, args, STASH_PUSH);
  if (isEffect(a)) return a;
  const all = flag(a, "all");
  const pick: Pick = {
    ...(flag(a, "keep-index") ? UNSTAGED : flag(a, "staged") ? STAGED : TRACKED),
    untracked: all || flag(a, "include-untracked"),
    ignored: all,
  };
  // `stash save` takes a message, not pathspecs.
  const pathspec = pathspecs ? pathspecOf(a, allOperands(a)) : WHOLE_TREE;
  return atRiskIn(pathspec, rule(pick, { kind: "dirty" }, true));
}

function stashApply(command: string, args: readonly string[]): Effect {
  const a = parsed(`stash ${command}`, args, STASH_APPLY);
  if (isEffect(a)) return a;
  const given = allOperands(a)[0] ?? "stash@{0}";
  const rev = /^\d+$/.test(given) ? `stash@{${given}}` : given;
  return atRisk(rule(DIRTY, { kind: "stash", rev }));
}

export function planClean(args: readonly string[]): Effect {
  const a = parsed("clean", args, CLEAN);
  if (isEffect(a)) return a;
  if (flag(a, "dry-run")) return NONE;
  const dryRun = [
    ...(flag(a, "-d") ? ["-d"] : []),
    // Forced twice, clean also removes nested repositories; the dry run reports them then.
    ...(count(a, "force") >= 2 ? ["-f", "-f"] : []),
    ...(flag(a, "-x") ? ["-x"] : []),
    ...(flag(a, "-X") ? ["-X"] : []),
    ...values(a, "exclude").map((e) => `--exclude=${e}`),
    "--",
    ...allOperands(a),
  ];
  const pick: Pick = flag(a, "-X") ? { ignored: true } : { untracked: true, ignored: flag(a, "-x") };
  return atRisk(rule(pick, { kind: "clean", args: dryRun }));
}

export function planRm(args: readonly string[]): Effect {
  const a = parsed("rm", args, RM);
  if (isEffect(a)) return a;
  if (flag(a, "dry-run")) return NONE;
  const pathspec = pathspecOf(a, allOperands(a));
  if (!hasPathspec(pathspec)) return NONE;
  // The entries leave the index, the files stay: a staged change is dropped (git refuses one that
  // differs from both HEAD and the file without -f; counted anyway, as below).
  if (flag(a, "cached")) return unstaging(pathspec);
  // Without -f git refuses to remove changed files; they are counted anyway, so the refusal names the owner.
  return atRiskIn(pathspec, rule(TRACKED, { kind: "dirty" }, true));
}

export function planMv(args: readonly string[]): Effect {
  const a = parsed("mv", args, MV);
  if (isEffect(a)) return a;
  const operands = allOperands(a);
  if (flag(a, "dry-run") || operands.length < 2) return NONE;
  const sources = operands.slice(0, -1);
  const dest = operands[operands.length - 1]!;
  const paths = [
    ...sources.map((path) => ({ path, under: true })),
    { path: dest, under: false },
    // Into an existing directory, each source lands under it by its own name.
    ...sources.map((s) => ({ path: posix.join(dest, posix.basename(s)), under: true })),
  ];
  return atRisk(rule(DIRTY, { kind: "paths", paths }));
}
