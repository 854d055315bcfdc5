import { dirtyPaths } from "../git/status.js";
import { releasedOrTouched } from "../store/claims/reads.js";
import type { Db } from "../store/db.js";

/**
 * A session's own files with uncommitted changes under `root` (new, untracked files included):
 * what it holds now (`held`, root-relative), what it released, and what it only touched through a
 * shell. Shared by `tandem status` and the presence a checkout publishes (src/remote/presence-doc.ts).
 * When git cannot answer, every candidate counts as dirty: owned work is never hidden.
 */
export function ownedDirty(
  db: Db,
  sessionId: string,
  root: string,
  repoTop: string | null,
  held: readonly string[],
): string[] {
  const candidates = [...new Set([...held, ...releasedOrTouched(db, sessionId, root)])].sort();
  if (!repoTop || candidates.length === 0) return [];
  return dirtyAmong(repoTop, root, candidates);
}

/**
 * Of `paths` (relative to `root`, a directory at or below the work tree's top `repoTop`), those
 * with uncommitted changes; all of them when git cannot say, so owned work is never hidden.
 */
export function dirtyAmong(repoTop: string, root: string, paths: readonly string[]): string[] {
  const prefix = root === repoTop ? "" : `${root.slice(repoTop.length + 1)}/`;
  try {
    const dirty = dirtyPaths(
      repoTop,
      paths.map((p) => `${prefix}${p}`),
    );
    return paths.filter((p) => dirty.has(`${prefix}${p}`));
  } catch {
    return [...paths];
  }
}
