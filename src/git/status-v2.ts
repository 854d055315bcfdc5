/**
 * Reading `git status --porcelain=v2 --branch -z` (the end-turn check, the apply preflight): the
 * dirty entries, the branch headers, and what the status says about chosen submodule paths, so a
 * superproject's own status can settle its gitlinks without further git processes.
 */
import type { DirtyEntry, SyncFacts } from "../core/finalization.js";
import { afterFields } from "./porcelain.js";
import { splitZ } from "./run.js";

/** What a superproject's status records about one of its paths that holds a repository. */
export type LinkRecord =
  /** An ordinary changed entry: the commit recorded in HEAD and in the index (null: no gitlink there). */
  | { kind: "changed"; head: string | null; index: string | null }
  /** Untracked or ignored: an independent repository nested in the tree, not a submodule. */
  | { kind: "independent" }
  /** A conflicted entry: no stage-0 commit to compare; ask the index and HEAD directly. */
  | { kind: "unmerged" };

export interface ParsedStatus {
  dirty: DirtyEntry[];
  sync: SyncFacts;
  /** Records for the requested link paths that the status listed; absent paths are unchanged. */
  links: Map<string, LinkRecord>;
  /** Ignored records (with `--ignored`), a whole directory as `dir/`. */
  ignored: string[];
}

const GITLINK = "160000";

/** Parses the status; `linkPaths` are the paths (relative to the top) whose records are kept. */
export function parseStatus(out: string, linkPaths: ReadonlySet<string> = new Set()): ParsedStatus {
  const sync: SyncFacts = {
    head: null,
    branch: null,
    upstream: null,
    ahead: null,
    containedIn: null,
    remotes: null,
  };
  const dirty: DirtyEntry[] = [];
  const links = new Map<string, LinkRecord>();
  const ignored: string[] = [];
  const records = splitZ(out);
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const kind = r.slice(0, 2);
    if (kind === "# ") header(r.slice(2), sync);
    else if (kind === "? " || kind === "! ") {
      const path = r.slice(2);
      if (kind === "? ") dirty.push({ path, state: "??" });
      else ignored.push(path);
      // A directory record stands for everything below it: a repository inside an ignored
      // directory is listed as that directory only.
      if (path.endsWith("/")) {
        for (const link of linkPaths) {
          if (link === path.slice(0, -1) || link.startsWith(path)) links.set(link, { kind: "independent" });
        }
      } else if (linkPaths.has(path)) links.set(path, { kind: "independent" });
    } else if (kind === "1 ") {
      const path = afterFields(r, 8).rest;
      dirty.push({ path, state: r.slice(2, 4) });
      if (linkPaths.has(path)) links.set(path, ordinary(r));
    } else if (kind === "u ") {
      const path = afterFields(r, 10).rest;
      dirty.push({ path, state: r.slice(2, 4) });
      if (linkPaths.has(path)) links.set(path, { kind: "unmerged" });
    } else if (kind === "2 ") {
      dirty.push({ path: afterFields(r, 9).rest, state: r.slice(2, 4) });
      i++; // the rename source follows as its own record
    }
  }
  return { dirty, sync, links, ignored };
}

/** `1 XY sub mH mI mW hH hI path`: the HEAD and index commits when their mode is a gitlink. */
function ordinary(r: string): LinkRecord {
  const [, , , mH, mI, , hH, hI] = r.split(" ");
  return { kind: "changed", head: mH === GITLINK ? hH! : null, index: mI === GITLINK ? hI! : null };
}

function header(h: string, sync: SyncFacts): void {
  const [key, ...rest] = h.split(" ");
  const value = rest.join(" ");
  if (key === "branch.oid") sync.head = value === "(initial)" ? null : value;
  else if (key === "branch.head") sync.branch = value === "(detached)" ? null : value;
  else if (key === "branch.upstream") sync.upstream = value;
  else if (key === "branch.ab") {
    const ahead = /^\+(\d+) /.exec(value)?.[1];
    sync.ahead = ahead === undefined ? null : Number(ahead);
  }
}
