/**
 * Plans for the plumbing commands that write the working tree or drop staged work:
 * `read-tree -u`, `checkout-index -f`, `update-index --force-remove`. They are judged
 * like the porcelain they stand under (`reset --hard`, `checkout .`, `rm --cached`
 * of a staged change).
 */
import { flag, optionSpec, parseArgv, value } from "./argv.js";
import {
  atRisk,
  atRiskIn,
  changedSince,
  DIRTY,
  type Effect,
  NONE,
  rule,
  STAGED,
  TRACKED,
  UNSTAGED,
  UNTRACKED,
  unknown,
} from "./impact-rules.js";

const READ_TREE = optionSpec(
  "-m reset -u -i -n dry-run trivial aggressive prefix= index-output= exclude-per-directory= empty quiet/q recurse-submodules? no-sparse-checkout",
);
const CHECKOUT_INDEX = optionSpec(
  "index/u quiet/q force/f all/a no-create/n prefix= stage= temp stdin/z? ignore-skip-worktree-bits",
);
const UPDATE_INDEX = optionSpec(
  "add remove force-remove refresh really-refresh q unmerged ignore-missing ignore-submodules cacheinfo= index-info chmod= assume-unchanged skip-worktree fsmonitor-valid ignore-skip-worktree-entries again/g unresolve info-only force-untracked-cache split-index untracked-cache fsmonitor index-version= stdin -z verbose clear-resolve-undo",
);

/** Paths named as files (not pathspecs), relative to the command's directory. */
const literal = (paths: readonly string[]) => ({
  specs: paths.map((p) => `:(literal)${p}`),
  fromFile: null,
});

/**
 * `read-tree -u`: with `--reset`, the index and the files become the tree's, like `reset --hard`;
 * with `-m` (one tree), staged changes are replaced and files that differ are rewritten (git
 * refuses over unstaged ones, which are counted anyway so the refusal names their owner).
 */
export function planReadTree(args: readonly string[]): Effect {
  const parsed = parseArgv(args, READ_TREE);
  if (!parsed.ok) return unknown(`git read-tree: ${parsed.reason}`);
  const a = parsed.argv;
  if (!flag(a, "-u") || flag(a, "-n", "dry-run")) return NONE; // the index only, or nothing
  if (value(a, "prefix") !== undefined || value(a, "index-output") !== undefined)
    return unknown("git read-tree --prefix/--index-output writes elsewhere");
  const trees = [...a.operands, ...(a.afterDashDash ?? [])];
  if (flag(a, "empty") && trees.length === 0) return atRisk(rule(TRACKED));
  if (trees.length !== 1) return unknown("git read-tree -u of several trees merges them");
  const tree = trees[0]!;
  if (flag(a, "reset")) return atRisk(rule(TRACKED), changedSince(UNTRACKED, tree));
  if (flag(a, "-m")) return atRisk(rule(STAGED), changedSince(DIRTY, tree));
  // Neither: git refuses to update the files without a merge.
  return NONE;
}

/** `checkout-index -f`: files rewritten from the index, every one (`-a`) or those named. */
export function planCheckoutIndex(args: readonly string[]): Effect {
  const parsed = parseArgv(args, CHECKOUT_INDEX);
  if (!parsed.ok) return unknown(`git checkout-index: ${parsed.reason}`);
  const a = parsed.argv;
  if (flag(a, "temp")) return NONE; // into temporary files
  if (value(a, "prefix") !== undefined) return unknown("git checkout-index --prefix writes elsewhere");
  if (flag(a, "stdin")) return unknown("git checkout-index --stdin reads its paths from stdin");
  // Without -f an existing file is left alone (git warns and skips it).
  if (!flag(a, "force") || flag(a, "no-create")) return NONE;
  const stage = value(a, "stage");
  const pick = stage === undefined || stage === "0" ? UNSTAGED : DIRTY;
  const paths = [...a.operands, ...(a.afterDashDash ?? [])];
  if (flag(a, "all")) return atRisk(rule(pick));
  if (paths.length === 0) return NONE;
  return atRiskIn(literal(paths), rule(pick, { kind: "dirty" }, true));
}

/**
 * `update-index --force-remove PATHS`: the entries leave the index; the files stay, but a staged
 * change (and a newly added file's staged bytes) exists nowhere else. Writing entries from
 * outside (`--cacheinfo`, `--index-info`, `--stdin`) cannot be read from the words.
 */
export function planUpdateIndex(args: readonly string[]): Effect {
  const parsed = parseArgv(args, UPDATE_INDEX);
  if (!parsed.ok) return unknown(`git update-index: ${parsed.reason}`);
  const a = parsed.argv;
  if (!flag(a, "force-remove")) return NONE;
  if (flag(a, "stdin", "index-info") || value(a, "cacheinfo") !== undefined)
    return unknown("git update-index --force-remove takes entries from outside its arguments");
  const paths = [...a.operands, ...(a.afterDashDash ?? [])];
  if (paths.length === 0) return NONE;
  return atRiskIn(literal(paths), rule(STAGED, { kind: "dirty" }, true));
}
