import { type Freshness, liveRemoteSessions, type PresenceDoc } from "./presence.js";

/**
 * The conflict forecast of `tandem conflicts` (docs/decisions/0014): where work is going on in
 * more than one place, and which branches will not merge cleanly into the target. Pure: the
 * shell gathers the sides and runs `git merge-tree`.
 */

/** One place where paths are being changed: a session here or in another checkout. */
export interface Side {
  machine: string;
  session: string;
  branch: string | null;
  task: string | null;
  paths: readonly string[];
}

export interface Overlap {
  path: string;
  sides: Omit<Side, "paths">[];
}

/** Paths changed by more than one side, each with every side changing it. */
export function overlaps(sides: readonly Side[]): Overlap[] {
  const by = new Map<string, Omit<Side, "paths">[]>();
  for (const { paths, ...side } of sides)
    for (const path of new Set(paths)) by.set(path, [...(by.get(path) ?? []), side]);
  return [...by]
    .filter(([, s]) => s.length > 1)
    .map(([path, s]) => ({ path, sides: s }))
    .sort((a, b) => a.path.localeCompare(b.path));
}

/** The live sessions of other checkouts' presence documents as sides (claims and dirty paths). */
export function remoteSides(
  docs: readonly PresenceDoc[],
  ownCheckout: string,
  now: number,
  fresh: Freshness,
): Side[] {
  return liveRemoteSessions(docs, ownCheckout, now, fresh).map(({ doc, session: s, branch }) => ({
    machine: doc.checkout.name,
    session: s.name,
    branch,
    task: s.task,
    paths: [...s.claims, ...s.dirty],
  }));
}

export interface MergeForecast {
  target: string;
  branch: string;
  clean: boolean;
  /** Files with textual conflicts when `branch` is merged into `target`. */
  files: string[];
}

/**
 * Reads `git merge-tree --write-tree --name-only -z`: exit 0 is a clean merge; exit 1 lists the
 * conflicted files after the tree id, up to an empty entry (informational messages follow).
 */
export function readMergeTree(target: string, branch: string, status: 0 | 1, out: string): MergeForecast {
  if (status === 0) return { target, branch, clean: true, files: [] };
  const parts = out.split("\0");
  const end = parts.indexOf("", 1);
  const files = [...new Set(parts.slice(1, end === -1 ? parts.length : end))];
  return { target, branch, clean: false, files };
}
