import { lstatSync } from "node:fs";
import { join } from "node:path";
import { afterFields } from "../../git/porcelain.js";
import { gitRaw } from "../../git/run.js";
import { CAPTURE_CONFIG } from "./git.js";

/** One `git status --porcelain=v2 -z` record, reduced to what capture needs. */
export interface StatusEntry {
  kind: "1" | "2" | "u" | "?";
  /** `N...` for ordinary paths, `S<c><m><u>` for submodules. */
  sub: string;
  path: string;
  origPath?: string;
}

/** Dirty state split into what capture excludes (and reports) and what it snapshots. */
export interface DirtyState {
  entries: StatusEntry[];
  /** Every path status named, rename sources included, in git's order. */
  allPaths: string[];
  submodules: string[];
  embeddedRepos: string[];
  /** Paths the temporary index will pick up. */
  capturable: string[];
}

/** Parses porcelain v2 `-z` output. Unknown record types throw: an unread record could be lost work. */
export function parseStatusV2(out: Buffer): StatusEntry[] {
  const records = out.toString("utf8").split("\0");
  if (records[records.length - 1] === "") records.pop();
  const entries: StatusEntry[] = [];
  for (let i = 0; i < records.length; i++) {
    const rec = records[i]!;
    const type = rec.slice(0, 2);
    // Headers (`# branch.*`, `# stash`) carry no paths.
    if (type === "# ") continue;
    if (type === "? ") entries.push({ kind: "?", sub: "N...", path: rec.slice(2) });
    else if (type === "1 ") {
      const { fields, rest } = afterFields(rec, 8);
      entries.push({ kind: "1", sub: fields[2]!, path: rest });
    } else if (type === "2 ") {
      const { fields, rest } = afterFields(rec, 9);
      const origPath = records[++i];
      if (origPath === undefined) throw new Error("git status rename record lacks its source path");
      entries.push({ kind: "2", sub: fields[2]!, path: rest, origPath });
    } else if (type === "u ") {
      const { fields, rest } = afterFields(rec, 10);
      entries.push({ kind: "u", sub: fields[2]!, path: rest });
    } else throw new Error(`unexpected git status record: ${JSON.stringify(rec.slice(0, 80))}`);
  }
  return entries;
}

/**
 * Reads and classifies the child's dirty state. `--ignore-submodules=none` so a
 * submodule config cannot hide a moved gitlink; `--no-renames` so every side of a
 * staged rename is a plain path. GIT_OPTIONAL_LOCKS=0 (from the scrubbed env) keeps
 * status from refreshing the child's index.
 */
export function readDirtyState(top: string): DirtyState {
  const out = gitRaw(top, [
    ...CAPTURE_CONFIG,
    "status",
    "--porcelain=v2",
    "-z",
    "--untracked-files=all",
    "--ignored=no",
    "--no-renames",
    "--ignore-submodules=none",
  ]);
  return classify(parseStatusV2(out));
}

export function classify(entries: StatusEntry[]): DirtyState {
  const state: DirtyState = {
    entries,
    allPaths: [],
    submodules: [],
    embeddedRepos: [],
    capturable: [],
  };
  for (const e of entries) {
    const paths = e.origPath === undefined ? [e.path] : [e.path, e.origPath];
    if (e.sub.startsWith("S")) {
      state.submodules.push(e.path);
      state.allPaths.push(...paths);
    } else if (e.kind === "?" && e.path.endsWith("/")) {
      // With --untracked-files=all git lists a directory as one entry only when it
      // holds its own repository (with or without a commit).
      const dir = e.path.slice(0, -1);
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
