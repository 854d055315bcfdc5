/**
 * The pure decisions of `tandem land` (docs/land.md): what to do with the local branch given
 * where the upstream is, and whether moving the shared checkout would touch anyone's work.
 */

/** Where the local branch stands against the fetched upstream (git's ancestry answers). */
export interface Ancestry {
  local: string;
  upstream: string;
  /** The upstream is an ancestor of the local branch (or equal): nothing to rebase. */
  upstreamInLocal: boolean;
  /** The local branch is an ancestor of the upstream: no local commits. */
  localInUpstream: boolean;
}

export type LandStep =
  | { kind: "up-to-date" }
  /** Only local commits on top of the upstream: push them as they are. */
  | { kind: "push" }
  /** Behind with no local commits: move the checkout forward, nothing to push. */
  | { kind: "fast-forward" }
  /** Diverged: rebase the local commits onto the upstream in a private worktree. */
  | { kind: "rebase" };

export function landStep(a: Ancestry): LandStep {
  if (a.local === a.upstream) return { kind: "up-to-date" };
  if (a.upstreamInLocal) return { kind: "push" };
  if (a.localInUpstream) return { kind: "fast-forward" };
  return { kind: "rebase" };
}

/** A path the move would change, and why it may not. */
export interface BlockedPath {
  path: string;
  /** Names of the sessions holding it; empty when no session does (left work, a person's edit). */
  holders: string[];
  dirty: boolean;
}

/** Who is on a path: sessions holding a claim on it, and sessions that changed it otherwise. */
export interface PathHolders {
  claimed: readonly string[];
  touched: readonly string[];
}

/**
 * The paths the move from the old commit to the new one would rewrite in the shared checkout that
 * someone's work sits on: uncommitted changes (git would refuse to overwrite them anyway; this
 * names who they belong to) and files a live session holds a claim on (it is about to edit them).
 * A file a session only touched once and that is clean now is nobody's work: it moves.
 */
export function blockedPaths(
  changed: readonly string[],
  dirty: ReadonlySet<string>,
  holders: ReadonlyMap<string, PathHolders>,
): BlockedPath[] {
  const out: BlockedPath[] = [];
  for (const path of [...new Set(changed)].sort()) {
    const h = holders.get(path) ?? { claimed: [], touched: [] };
    const isDirty = dirty.has(path) || [...dirty].some((d) => d.endsWith("/") && path.startsWith(d));
    if (!isDirty && h.claimed.length === 0) continue;
    out.push({ path, holders: [...new Set([...h.claimed, ...(isDirty ? h.touched : [])])], dirty: isDirty });
  }
  return out;
}

/** How many times a lost push race is retried before giving up. */
export const LAND_ATTEMPTS = 5;

/** After a lost race: try again while attempts remain. */
export function retryAfterLostRace(attempt: number): boolean {
  return attempt < LAND_ATTEMPTS;
}
