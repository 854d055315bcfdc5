/**
 * Plans for the git commands that bring other commits or patches into the working
 * tree (merge, rebase, pull, cherry-pick, revert, apply, am) and for a commit that
 * skips its pre-commit hook.
 */
import { allOperands, flag, given, lastOf, optionSpec, parseArgv, value, values } from "./argv.js";
import { type GitGlobals, hooksRedirected } from "./globals.js";
import {
  atRisk,
  changedSince,
  DIRTY,
  type Effect,
  hasPathspec,
  NONE,
  type Pathspec,
  pathspecOf,
  type Rule,
  rule,
  STAGED,
  TRACKED,
  unknown,
} from "./impact-rules.js";

/** Configuration that decides what pull, merge and rebase do with local changes. */
export const CONFIG_KEYS = "^(merge\\.autostash|rebase\\.autostash|pull\\.rebase|branch\\..*\\.rebase)$";
export type GitConfig = ReadonlyMap<string, string>;

const SEQUENCE = "continue abort quit skip";
const MERGE_OPTS =
  "commit edit/e cleanup= ff ff-only squash stat summary log? signoff verify verify-signatures strategy/s= strategy-option/X= rerere-autoupdate quiet/q verbose/v progress allow-unrelated-histories autostash overwrite-ignore gpg-sign/S? -n";
const MERGE = optionSpec(`${MERGE_OPTS} message/m= file/F= into-name= abort quit continue`);
const PULL = optionSpec(
  `${MERGE_OPTS} rebase/r? recurse-submodules? all append/a upload-pack= force/f tags/t prune/p? jobs/j= dry-run keep/k depth= shallow-since= shallow-exclude= deepen= unshallow update-shallow refmap= server-option/o= ipv4/4 ipv6/6 negotiation-tip= show-forced-updates set-upstream`,
);
const REBASE = optionSpec(
  `onto= keep-base root ${SEQUENCE} edit-todo show-current-patch merge/m apply strategy/s= strategy-option/X= interactive/i exec/x= autosquash autostash fork-point empty= rebase-merges/r? update-refs quiet/q verbose/v stat -n verify -C= ignore-whitespace whitespace= committer-date-is-author-date ignore-date reset-author-date signoff gpg-sign/S? reschedule-failed-exec force-rebase/f no-ff keep-empty allow-empty-message rerere-autoupdate`,
);
const PICK = optionSpec(
  `edit/e cleanup= -x -r mainline/m= no-commit/n signoff/s gpg-sign/S? ff allow-empty allow-empty-message keep-redundant-commits empty= strategy= strategy-option/X= rerere-autoupdate reference stdin ${SEQUENCE}`,
);
const PATCH_FILTERS =
  "directory= exclude= include= -p= -C= whitespace= ignore-space-change ignore-whitespace reject";
const APPLY = optionSpec(
  `stat numstat summary check index intent-to-add/N 3way/3 apply no-add build-fake-ancestor= reverse/R allow-binary-replacement binary -z inaccurate-eof recount cached verbose/v quiet/q unsafe-paths allow-empty allow-overlap ${PATCH_FILTERS}`,
);
const AM = optionSpec(
  `interactive/i 3way/3 quiet/q signoff/s utf8/u keep/k keep-non-patch keep-cr scissors/c message-id/m patch-format= resolvemsg= resolved/r show-current-patch? committer-date-is-author-date ignore-date allow-empty empty= gpg-sign/S? quoted-cr= no-verify/n ${SEQUENCE} ${PATCH_FILTERS}`,
);
const COMMIT = optionSpec(
  "quiet/q verbose/v file/F= author= date= message/m= reedit-message/c= reuse-message/C= fixup= squash= reset-author trailer= signoff/s template/t= edit/e cleanup= status gpg-sign/S? all/a include/i only/o interactive patch/p pathspec-from-file= pathspec-file-nul untracked-files/u? dry-run short branch ahead-behind porcelain long null/z amend no-post-rewrite allow-empty allow-empty-message no-verify/n",
);

function truthy(v: string | undefined): boolean {
  if (v === undefined) return false;
  return !["false", "no", "off", "0", ""].includes(v.toLowerCase());
}

/**
 * A merge of other commits into dirty work: git refuses to overwrite local changes in the
 * files it changes, so those are what is at risk; with autostash every change is taken away.
 */
function mergeInto(targets: string[], autostash: boolean, mergeBase: boolean): Effect {
  if (autostash) return atRisk(rule(DIRTY));
  if (targets.length === 1) return atRisk(changedSince(DIRTY, targets[0]!, mergeBase));
  return atRisk(rule(DIRTY, { kind: "commits", revs: [...targets, "^HEAD"] }));
}

/** `--abort`, `--skip`: a `reset --merge` back to `to`, which drops staged changes too. */
const resetMerge = (to: string): Effect =>
  to === "HEAD" ? atRisk(rule(STAGED)) : atRisk(rule(STAGED), changedSince(DIRTY, to));

const revName = (name: string) => (name === "-" ? "@{-1}" : name);

export function planMerge(args: readonly string[], config?: GitConfig): Effect {
  const parsed = parseArgv(args, MERGE);
  if (!parsed.ok) return unknown(`git merge: ${parsed.reason}`);
  const a = parsed.argv;
  if (flag(a, "abort")) return resetMerge("HEAD");
  if (flag(a, "quit") || flag(a, "continue")) return NONE; // --continue commits, with its hook
  const heads = a.operands.length > 0 ? a.operands.map(revName) : ["@{u}"];
  if (given(a, "autostash")) return mergeInto(heads, flag(a, "autostash"), true);
  if (!config) return { kind: "config" };
  return mergeInto(heads, truthy(config.get("merge.autostash")), true);
}

export function planPull(args: readonly string[], config?: GitConfig): Effect {
  const parsed = parseArgv(args, PULL);
  if (!parsed.ok) return unknown(`git pull: ${parsed.reason}`);
  const a = parsed.argv;
  const targets = pullTargets(allOperands(a));
  if (typeof targets === "string") return unknown(targets);
  if (given(a, "autostash") && flag(a, "autostash")) return mergeInto(targets, true, false);
  const rebaseOpt = a.opts.filter((o) => o.name === "rebase").pop();
  const settled = given(a, "autostash") && rebaseOpt !== undefined;
  if (!settled && !config) return { kind: "config" };
  // pull.rebase, or any branch's own rebase setting (which one is current is not asked).
  const rebasing = rebaseOpt
    ? rebaseOpt.value === true || (typeof rebaseOpt.value === "string" && truthy(rebaseOpt.value))
    : [...config!].some(
        ([key, v]) => (key === "pull.rebase" || /^branch\..*\.rebase$/.test(key)) && truthy(v),
      );
  const autostash = given(a, "autostash")
    ? false
    : truthy(config!.get(rebasing ? "rebase.autostash" : "merge.autostash"));
  return mergeInto(targets, autostash, !rebasing);
}

/**
 * What a pull merges, as known locally before it fetches: the upstream, or the named
 * branches of a named remote. A URL fetches something nothing local names.
 */
function pullTargets(operands: string[]): string[] | string {
  const [remote, ...refspecs] = operands;
  if (remote === undefined || refspecs.length === 0) {
    if (remote !== undefined && !/^[\w.-]+$/.test(remote))
      return `git pull from ${remote}: not a named remote`;
    return ["@{u}"];
  }
  if (!/^[\w.-]+$/.test(remote)) return `git pull from ${remote}: not a named remote`;
  const out: string[] = [];
  for (const refspec of refspecs) {
    const src = refspec.replace(/^\+/, "").split(":")[0]!;
    if (src === "" || /[*?[]/.test(src) || src.startsWith("refs/tags/") || src.startsWith("tags/")) {
      return `git pull ${remote} ${refspec}: what it fetches is not known before it runs`;
    }
    out.push(`refs/remotes/${remote}/${src.replace(/^refs\/heads\//, "")}`);
  }
  return out;
}

export function planRebase(args: readonly string[], config?: GitConfig): Effect {
  const parsed = parseArgv(args, REBASE);
  if (!parsed.ok) return unknown(`git rebase: ${parsed.reason}`);
  const a = parsed.argv;
  if (values(a, "exec").length > 0) return unknown("git rebase --exec runs commands of its own");
  const action = lastOf(a, "continue", "abort", "quit", "skip", "edit-todo", "show-current-patch");
  if (action === "abort") return resetMerge("ORIG_HEAD");
  if (action === "skip") return resetMerge("HEAD");
  if (action !== undefined) return NONE; // --continue: the remaining picks refuse to overwrite changes
  const autostash = given(a, "autostash")
    ? flag(a, "autostash")
    : config && truthy(config.get("rebase.autostash"));
  if (autostash === undefined) return { kind: "config" };
  if (autostash) return atRisk(rule(DIRTY));
  const [upstream, branch] = a.operands;
  const onto = value(a, "onto") ?? (flag(a, "root") ? undefined : (upstream ?? "@{u}"));
  // --root without --onto rewrites every commit from the first: every tracked file is touched.
  const rules: Rule[] = onto === undefined ? [rule(TRACKED)] : [changedSince(DIRTY, revName(onto))];
  if (branch !== undefined) rules.push(changedSince(DIRTY, branch));
  return atRisk(...rules);
}

/** cherry-pick and revert: the files the named commits change. */
export function planPick(command: "cherry-pick" | "revert", args: readonly string[]): Effect {
  const parsed = parseArgv(args, PICK);
  if (!parsed.ok) return unknown(`git ${command}: ${parsed.reason}`);
  const a = parsed.argv;
  if (flag(a, "stdin")) return unknown(`git ${command} --stdin reads its commits from stdin`);
  const action = lastOf(a, "continue", "abort", "quit", "skip");
  if (action === "abort" || action === "skip") return resetMerge("HEAD");
  if (action !== undefined) return NONE;
  const revs = allOperands(a).map(revName);
  if (revs.length === 0) return NONE; // git refuses: nothing to pick
  return atRisk(rule(DIRTY, { kind: "commits", revs }));
}

/** The options that decide which paths a patch lands on, passed on to `git apply --numstat`. */
function patchFilters(a: Parameters<typeof flag>[0]): string[] {
  return [
    ...(value(a, "-p") !== undefined ? [`-p${value(a, "-p")}`] : []),
    ...(value(a, "directory") !== undefined ? [`--directory=${value(a, "directory")}`] : []),
    // Include and exclude apply in the order given; the first match decides.
    ...a.opts
      .filter((o) => (o.name === "include" || o.name === "exclude") && typeof o.value === "string")
      .map((o) => `--${o.name}=${o.value}`),
  ];
}

function patchFiles(command: string, files: string[], filters: string[]): Effect {
  if (files.length === 0 || files.includes("-")) return unknown(`git ${command} reads its patch from stdin`);
  return atRisk(rule(DIRTY, { kind: "patch", args: [...filters, "--", ...files] }));
}

export function planApply(args: readonly string[]): Effect {
  const parsed = parseArgv(args, APPLY);
  if (!parsed.ok) return unknown(`git apply: ${parsed.reason}`);
  const a = parsed.argv;
  if (flag(a, "cached")) return NONE; // the index only
  const reports = flag(a, "stat") || flag(a, "numstat") || flag(a, "summary") || flag(a, "check");
  if (reports && !flag(a, "apply")) return NONE;
  const extra = ["reverse", "unsafe-paths", "recount", "inaccurate-eof"].filter((name) => flag(a, name));
  const filters = [...patchFilters(a), ...extra.map((name) => (name === "reverse" ? "-R" : `--${name}`))];
  return patchFiles("apply", allOperands(a), filters);
}

export function planAm(args: readonly string[]): Effect {
  const parsed = parseArgv(args, AM);
  if (!parsed.ok) return unknown(`git am: ${parsed.reason}`);
  const a = parsed.argv;
  const action = lastOf(a, "continue", "resolved", "abort", "quit", "skip", "show-current-patch");
  if (action === "abort") return resetMerge("ORIG_HEAD");
  if (action === "skip") return resetMerge("HEAD");
  if (action !== undefined) return NONE;
  const format = value(a, "patch-format");
  if (format !== undefined && format !== "mbox")
    return unknown(`git am --patch-format=${format} is not read`);
  return patchFiles("am", allOperands(a), patchFilters(a));
}

/**
 * A commit that skips the pre-commit hook: the paths it would commit (the hook is not
 * there to judge them). With its hook on, the hook judges it and nothing is reported.
 */
export function planCommit(args: readonly string[], globals: GitGlobals): Effect {
  const parsed = parseArgv(args, COMMIT);
  if (!parsed.ok) return unknown(`git commit: ${parsed.reason}`);
  const a = parsed.argv;
  if (!(flag(a, "no-verify") || hooksRedirected(globals)) || flag(a, "dry-run")) return NONE;
  const pathspec: Pathspec = pathspecOf(a, allOperands(a));
  const interactive = flag(a, "patch", "interactive");
  let rules: Rule[];
  if (!hasPathspec(pathspec)) rules = [rule(flag(a, "all") || interactive ? TRACKED : STAGED)];
  else if (flag(a, "all"))
    return NONE; // git refuses paths with -a
  else if (flag(a, "include")) rules = [rule(STAGED), rule(TRACKED, { kind: "dirty" }, true)];
  else rules = [rule(TRACKED, { kind: "dirty" }, true)]; // --only, the default with paths
  // With paths and without --include (git's --only) the commit leaves the rest of the index out.
  const commitsIndex = !hasPathspec(pathspec) || flag(a, "include");
  return { kind: "rules", into: "committed", pathspec, rules, commitsIndex };
}
