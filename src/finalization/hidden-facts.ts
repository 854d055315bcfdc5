/**
 * Facts about work `git status` does not show: the index tags of owned paths (skip-worktree,
 * assume-unchanged) and a repository's stash, read from its reflog file without a process.
 */
import { workTreeAt } from "../config/git-discovery.js";
import type { IndexTag, StashFacts } from "../core/finalization.js";
import { splitZ } from "../git/run.js";
import { parseStashList, readStashReflog, STASH_LIST_ARGS } from "../git/stash.js";
import { type GitAuthority, msg, runGit } from "./run-git.js";

/** `git ls-files -v` over the owned pathspecs (null: the whole repository). */
export async function indexTags(top: string, specs: string[] | null, may: GitAuthority): Promise<IndexTag[]> {
  const out = await runGit(top, ["ls-files", "-v", "-z", ...(specs ? ["--", ...specs] : [])], may);
  return splitZ(out).map((rec) => ({ tag: rec.slice(0, 1), path: rec.slice(2) }));
}

/** A repository's stash from its reflog file; git only for a reftable repository, where authorized. */
export async function stashFacts(repo: string, may: GitAuthority): Promise<StashFacts> {
  try {
    const tree = workTreeAt(repo);
    if (!tree) return { repo, error: "it is no longer a Git working tree, so its stash cannot be read" };
    const read = readStashReflog(tree.commonDir);
    const entries = read === "reftable" ? parseStashList(await runGit(repo, STASH_LIST_ARGS, may)) : read;
    return { repo, present: entries.map((e) => e.sha) };
  } catch (err) {
    return { repo, error: `its stash could not be read: ${msg(err)}` };
  }
}
