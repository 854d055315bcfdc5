/**
 * Plans for the plumbing commands that write the working tree or the index from a tree:
 * `read-tree` and `checkout-index -f`. They are judged like the porcelain they stand
 * under (`reset --hard`, a mixed `reset`, `checkout .`). `update-index` is planned with
 * `add` (impact-index.ts).
 */
import { flag, optionSpec, parseArgv, value } from "./argv.js";
import {
  atRisk,
  atRiskIn,
  changedSince,
  DIRTY,
  type Effect,
  literalPaths,
  NONE,
  rule,
  STAGED,
  stagedLostIn,
  TRACKED,
  UNSTAGED,
  UNTRACKED,
  unknown,
  WHOLE_TREE,
} from "./impact-rules.js";

const READ_TREE = optionSpec(
  "-m reset -u -i -n dry-run trivial aggressive prefix= index-output= exclude-per-directory= empty quiet/q recurse-submodules? no-sparse-checkout",
);
const CHECKOUT_INDEX = optionSpec(
  "index/u quiet/q force/f all/a no-create/n prefix= stage= temp stdin/z? ignore-skip-worktree-bits",
);

/**
 * `read-tree -u`: with `--reset`, the index and the files become the tree's, like `reset --hard`;
 * with `-m` (one tree), staged changes are replaced and files that differ are rewritten (git
 * refuses over unstaged ones, which are counted anyway so the refusal names their owner).
 * Without `-u` only the index is rewritten, like a mixed `reset`: every staged change goes (some
 * merges of several trees refuse instead; counted anyway, as above).
 */
export function planReadTree(args: readonly string[]): Effect {
  const parsed = parseArgv(args, READ_TREE);
  if (!parsed.ok) return unknown(`git read-tree: ${parsed.reason}`);
  const a = parsed.argv;
  if (flag(a, "-n", "dry-run")) return NONE;
  if (value(a, "index-output") !== undefined)
    return unknown("git read-tree --index-output writes an index file of its own choosing");
  if (!flag(a, "-u")) {
    // --prefix only adds entries under a directory the index does not have yet (git refuses otherwise).
    return value(a, "prefix") !== undefined ? NONE : stagedLostIn(WHOLE_TREE, rule(STAGED));
  }
  if (value(a, "prefix") !== undefined) return unknown("git read-tree --prefix -u writes elsewhere");
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
  return atRiskIn(literalPaths(paths), rule(pick, { kind: "dirty" }, true));
}
