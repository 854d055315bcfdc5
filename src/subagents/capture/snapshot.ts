import { copyFileSync, existsSync, mkdirSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { git } from "../../git/run.js";
import type { StreamToFileResult } from "../../git/stream.js";
import { addPathspecs, CAPTURE_CONFIG, type RepoInfo, snapshotEnv, streamWorktreeDiff } from "./git.js";

/**
 * Seeds the private index with HEAD's tree. Starting from a copy of the child's
 * index, `read-tree --reset HEAD` keeps the child's stat data for entries that
 * match HEAD (and drops staged and unmerged ones without checking the worktree),
 * so `add -A` re-reads only files whose stat changed instead of hashing the whole
 * tree. The copy is back-dated a second so git's racy-entry check covers at least
 * the entries it covered in the original: a newer index mtime could make a
 * same-second edit look clean.
 */
function seedIndex(repo: RepoInfo, tmpIndex: string, env: Record<string, string>): void {
  if (existsSync(repo.indexFile)) {
    const st = statSync(repo.indexFile);
    copyFileSync(repo.indexFile, tmpIndex);
    utimesSync(tmpIndex, st.atime, new Date(st.mtimeMs - 1000));
    git(repo.top, [...CAPTURE_CONFIG, "read-tree", "--reset", repo.head], { env });
    return;
  }
  git(repo.top, [...CAPTURE_CONFIG, "read-tree", repo.head], { env });
}

/**
 * Stages the whole worktree minus `excluded` into a private index and object
 * directory under `tmpRoot`, then streams `diff --cached HEAD` into `patchFile`.
 * The child's index, worktree, refs and object store are only read.
 */
export function snapshotWorktree(
  repo: RepoInfo,
  excluded: readonly string[],
  tmpRoot: string,
  patchFile: string,
  maxBytes: number,
  onChunk?: (chunk: Buffer) => void,
): Promise<StreamToFileResult> {
  const tmpIndex = join(tmpRoot, "index");
  const objects = join(tmpRoot, "objects");
  mkdirSync(objects, { recursive: true });
  const env = snapshotEnv(tmpIndex, objects, repo.objectsDir);
  seedIndex(repo, tmpIndex, env);
  // The throwaway object directory is deleted right after the diff: compressing its objects buys
  // nothing and cost most of add's CPU on a 50 MB change (bench/RESULTS.md).
  const add = ["-c", "core.looseCompression=0", "add", "-A", "--pathspec-from-file=-", "--pathspec-file-nul"];
  git(repo.top, [...CAPTURE_CONFIG, ...add], {
    env,
    input: addPathspecs(excluded),
  });
  return streamWorktreeDiff(repo.top, repo.head, env, patchFile, maxBytes, onChunk);
}
