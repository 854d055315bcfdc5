/**
 * What the end-turn check takes from one repository's status: the dirty entries, the sync headers,
 * the ignored records, and what the status says about chosen submodule paths, so a superproject's
 * own status can settle its gitlinks without further git processes.
 */
import type { DirtyEntry, SyncFacts } from "../core/finalization/verdict.js";
import type { StatusRecord, StatusReport } from "../core/git/status.js";

/** What a superproject's status records about one of its paths that holds a repository. */
export type LinkRecord =
  /** An ordinary changed entry: the commit recorded in HEAD and in the index (null: no gitlink there). */
  | { kind: "changed"; head: string | null; index: string | null }
  /** Untracked or ignored: an independent repository nested in the tree, not a submodule. */
  | { kind: "independent" }
  /** A conflicted entry: no stage-0 commit to compare; ask the index and HEAD directly. */
  | { kind: "unmerged" };

export interface StatusFacts {
  dirty: DirtyEntry[];
  sync: SyncFacts;
  /** Records for the requested link paths that the status listed; absent paths are unchanged. */
  links: Map<string, LinkRecord>;
  /** Ignored records (with `--ignored`), a whole directory as `dir/`. */
  ignored: string[];
}

const GITLINK = "160000";

/** `linkPaths`: the submodule paths (relative to the top) whose records are kept. */
export function statusFacts(report: StatusReport, linkPaths: ReadonlySet<string> = new Set()): StatusFacts {
  const b = report.branch;
  const sync: SyncFacts = {
    head: b.oid,
    branch: b.head,
    upstream: b.upstream,
    ahead: b.ahead,
    behind: b.behind,
    containedIn: null,
    remotes: null,
  };
  const dirty: DirtyEntry[] = [];
  const links = new Map<string, LinkRecord>();
  const ignored: string[] = [];
  for (const r of report.records) {
    if (r.kind === "ignored") ignored.push(r.path);
    else dirty.push({ path: r.path, state: r.kind === "untracked" ? "??" : r.xy });
    const link = linkRecord(r);
    if (r.path.endsWith("/") && (r.kind === "untracked" || r.kind === "ignored")) {
      // A directory record stands for everything below it: a repository inside an ignored
      // directory is listed as that directory only.
      for (const p of linkPaths) if (p === r.path.slice(0, -1) || p.startsWith(r.path)) links.set(p, link);
    } else if (linkPaths.has(r.path)) links.set(r.path, link);
  }
  return { dirty, sync, links, ignored };
}

function linkRecord(r: StatusRecord): LinkRecord {
  if (r.kind === "untracked" || r.kind === "ignored") return { kind: "independent" };
  if (r.kind === "unmerged") return { kind: "unmerged" };
  const commit = (mode: string, hash: string) => (mode === GITLINK ? hash : null);
  return {
    kind: "changed",
    head: commit(r.modes.head, r.hashes.head),
    index: commit(r.modes.index, r.hashes.index),
  };
}
