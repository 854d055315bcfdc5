/**
 * Facts about work `git status` does not show: the index tags of owned paths (skip-worktree,
 * assume-unchanged) and a repository's stash. Both are read from files without a process where
 * the file can be read with certainty; git is asked otherwise.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dirname } from "node:path/posix";
import { workTreeAt } from "../config/git-discovery.js";
import type { IndexTag, StashFacts } from "../core/finalization/verdict.js";
import { indexFlags } from "../core/git/index-flags.js";
import { splitZ } from "../git/run.js";
import { parseStashList, readStashReflog, STASH_LIST_ARGS } from "../git/stash.js";
import { literal } from "../git/status.js";
import { type GitAuthority, msg, runGit } from "./run-git.js";

/**
 * The flagged index entries at or below the owned paths `rels`. From the index file; `git ls-files
 * -v` (over `cover`, the status's few directories holding `rels`, or the whole repository when
 * null) only where the file holds what this reader does not know (a split or sparse index, an
 * unknown version).
 */
export async function indexTags(
  top: string,
  rels: readonly string[],
  cover: readonly string[] | null,
  may: GitAuthority,
): Promise<IndexTag[]> {
  if (!may(top))
    throw new Error(`refusing to read the index of ${top}: it lies outside the authorized roots`);
  const read = readIndex(top);
  let tags: IndexTag[];
  if (read && "tags" in read) tags = read.tags;
  else {
    const specs = cover === null ? [] : ["--", ...cover.map(literal)];
    const out = await runGit(top, ["ls-files", "-v", "-z", ...specs], may);
    tags = splitZ(out).map((rec) => ({ tag: rec.slice(0, 1), path: rec.slice(2) }));
  }
  const owned = new Set(rels);
  return tags.filter((t) => underAny(t.path, owned));
}

function readIndex(top: string) {
  const tree = workTreeAt(top);
  if (!tree) return null;
  try {
    return indexFlags(readFileSync(join(tree.gitDir, "index")));
  } catch (err) {
    // No index yet: nothing is staged, so nothing is flagged.
    return (err as NodeJS.ErrnoException).code === "ENOENT" ? { tags: [] } : null;
  }
}

/** `path` is one of `rels` or lies below one ("." is the whole repository). */
function underAny(path: string, rels: ReadonlySet<string>): boolean {
  for (let p = path; ; p = dirname(p)) {
    if (rels.has(p)) return true;
    if (p === ".") return false;
  }
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
