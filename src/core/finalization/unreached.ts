/**
 * Owned work no remote-tracking ref reaches (issue 37.4): a commit the session made and then left
 * behind (`reset --keep HEAD~1`, a side branch never pushed, a stash entry dropped). Pure: the
 * reflog arrives parsed and every Git answer arrives as data (finalization/unreached-facts.ts).
 */

/** One line of a HEAD reflog: HEAD moved from `old` to `new` at `time` (seconds). */
export interface ReflogEntry {
  old: string;
  new: string;
  time: number;
  message: string;
}

/** Moves whose old position is, by construction, an ancestor of (or replaced by) the new one. */
const FORWARD = /^(commit( \((initial|merge|amend)\))?|merge |pull|cherry-pick|revert)\b/;

/**
 * The commits HEAD pointed at since `since` (seconds) that the reflog cannot already prove to be
 * behind the current HEAD: the cheap signal, read from a file, that decides whether git runs at all.
 * Walking back from HEAD, a commit-like move makes its old position covered; a reset or checkout
 * does not, so what it left behind stays a candidate.
 */
export function sessionCommits(
  entries: readonly ReflogEntry[],
  since: number,
  head: string | null,
): string[] {
  const recent = entries.filter((e) => e.time >= since);
  const covered = new Set(head === null ? [] : [head]);
  for (let i = recent.length - 1; i >= 0; i--) {
    const e = recent[i]!;
    if (covered.has(e.new) && FORWARD.test(e.message)) covered.add(e.old);
  }
  const zero = /^0+$/;
  return [...new Set(recent.map((e) => e.new))].filter((sha) => !covered.has(sha) && !zero.test(sha));
}

/** Where a commit nothing pushed reaches can still be found. */
export type LostWhere =
  | { kind: "branch"; branches: string[] }
  | { kind: "reflog" }
  /** A stash entry the session created and that is no longer in the stash. */
  | { kind: "stash"; stash: string };

/** The version of an owned path in a commit no remote-tracking ref (nor HEAD) reaches. */
export interface OrphanVersion {
  /** Relative to the repository top. */
  path: string;
  sha: string;
  /** Committer time, seconds. */
  time: number;
  /** The path's blob there; null when the commit deleted it. */
  blob: string | null;
  where: LostWhere;
}

/** The path as HEAD has it: its blob (null: absent) and the time of HEAD's last commit touching it. */
export interface HeadVersion {
  blob: string | null;
  time: number | null;
}

export interface UnreachedFacts {
  repo: string;
  orphans: readonly OrphanVersion[];
  head: Readonly<Record<string, HeadVersion>>;
  /** Git could not answer: the repository is unverifiable, never passed. */
  error?: string;
}

export type UnreachedFinding = { repo: string; path: string; sha: string } & LostWhere;

/**
 * Per path, the newest orphan version is lost work unless HEAD holds the same bytes or HEAD
 * committed the path strictly later (the session moved on: the orphan is superseded). A tie in
 * time with other bytes is reported: committer times have one-second resolution.
 */
export function lostWork(facts: UnreachedFacts): UnreachedFinding[] {
  const newest = new Map<string, OrphanVersion>();
  for (const o of facts.orphans) {
    const known = newest.get(o.path);
    if (!known || o.time > known.time) newest.set(o.path, o);
  }
  const out: UnreachedFinding[] = [];
  for (const [path, o] of newest) {
    const head = facts.head[path] ?? { blob: null, time: null };
    if (head.blob === o.blob) continue;
    if (head.time !== null && head.time > o.time) continue;
    out.push({ repo: facts.repo, path, sha: o.sha, ...o.where });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
