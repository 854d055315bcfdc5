/**
 * A repository's stash entries, read from the `refs/stash` reflog file: no git process, so the
 * shell hook and the end-turn check can ask without adding to their budgets. Only a repository
 * whose refs live in a reftable has no such file; there git is asked (`git stash list`).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { workTreeAt } from "../config/git-discovery.js";
import { gitStatus } from "./run.js";

export interface StashEntry {
  /** The stash commit. */
  sha: string;
  /** The reflog message (`On main: wip`), as `git stash list` shows it. */
  message: string;
}

/** The stash reflog of a repository, or "reftable" when only git can read it. */
export function readStashReflog(commonDir: string): StashEntry[] | "reftable" {
  if (existsSync(join(commonDir, "reftable"))) return "reftable";
  let text: string;
  try {
    text = readFileSync(join(commonDir, "logs", "refs", "stash"), "utf8");
  } catch (err) {
    // No stash at all: git deletes the reflog with the last entry.
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  return parseStashReflog(text);
}

/** `old new name <email> ts tz\tmessage` lines, oldest first; returned newest first like `stash list`. */
export function parseStashReflog(text: string): StashEntry[] {
  const out: StashEntry[] = [];
  for (const line of text.split("\n")) {
    const m = /^[0-9a-f]+ ([0-9a-f]+) [^\t]*\t?(.*)$/.exec(line);
    if (m) out.push({ sha: m[1]!, message: m[2]! });
  }
  return out.reverse();
}

/** `git stash list` output in the form asked for by STASH_LIST_ARGS. */
export function parseStashList(out: string): StashEntry[] {
  return out
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => {
      const tab = l.indexOf("\t");
      return tab === -1 ? { sha: l, message: "" } : { sha: l.slice(0, tab), message: l.slice(tab + 1) };
    });
}

export const STASH_LIST_ARGS = ["stash", "list", "--format=%H%x09%gs"];

/** The stash entries of the repository whose top is `top`; throws when it cannot be read. */
export function stashEntries(top: string): StashEntry[] {
  const tree = workTreeAt(top);
  if (!tree) throw new Error(`${top} is not the top of a Git working tree`);
  const read = readStashReflog(tree.commonDir);
  if (read !== "reftable") return read;
  const res = gitStatus(top, STASH_LIST_ARGS);
  if (res.status !== 0) throw new Error(`git stash list failed in ${top}: ${res.stderr.trim()}`);
  return parseStashList(res.stdout);
}
