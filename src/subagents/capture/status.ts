import { lstatSync } from "node:fs";
import { join } from "node:path";
import type { StatusRecord } from "../../core/git/status.js";
import { readStatus } from "../../git/status.js";
import { CAPTURE_CONFIG } from "./git.js";

/** Dirty state split into what capture excludes (and reports) and what it snapshots. */
export interface DirtyState {
  records: StatusRecord[];
  /** Every path status named, rename sources included, in git's order. */
  allPaths: string[];
  submodules: string[];
  embeddedRepos: string[];
  /** Paths the temporary index will pick up. */
  capturable: string[];
}

/**
 * Reads and classifies the child's dirty state. `--ignore-submodules=none` so a
 * submodule config cannot hide a moved gitlink. GIT_OPTIONAL_LOCKS=0 (from the
 * scrubbed env) keeps status from refreshing the child's index.
 */
export function readDirtyState(top: string): DirtyState {
  return classify(readStatus(top, { ignoreSubmodules: "none" }, { before: CAPTURE_CONFIG }).records);
}

export function classify(records: StatusRecord[]): DirtyState {
  const state: DirtyState = {
    records,
    allPaths: [],
    submodules: [],
    embeddedRepos: [],
    capturable: [],
  };
  for (const r of records) {
    // Not asked for: an ignored file is no work to capture.
    if (r.kind === "ignored") continue;
    const paths = r.kind === "renamed" ? [r.path, r.origPath] : [r.path];
    if (r.kind !== "untracked" && r.sub.startsWith("S")) {
      state.submodules.push(r.path);
      state.allPaths.push(...paths);
    } else if (r.kind === "untracked" && r.path.endsWith("/")) {
      // With --untracked-files=all git lists a directory as one entry only when it
      // holds its own repository (with or without a commit).
      const dir = r.path.slice(0, -1);
      state.embeddedRepos.push(dir);
      state.allPaths.push(dir);
    } else {
      state.capturable.push(...paths);
      state.allPaths.push(...paths);
    }
  }
  state.allPaths = [...new Set(state.allPaths)];
  state.capturable = [...new Set(state.capturable)];
  return state;
}

/**
 * Sums the on-disk size of the capturable paths (lstat: a symlink counts as its
 * target name, never what it points at). A vanished path is a deletion and counts
 * zero; any other error throws so the probe fails closed.
 */
export function dirtyBytes(top: string, paths: readonly string[]): number {
  let total = 0;
  for (const rel of paths) {
    try {
      total += lstatSync(join(top, rel)).size;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw err;
    }
  }
  return total;
}
