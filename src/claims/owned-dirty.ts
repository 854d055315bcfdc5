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
  const prefix = root === repoTop ? "" : `${root.slice(repoTop.length + 1)}/`;
  try {
    const dirty = dirtyPaths(
      repoTop,
      candidates.map((c) => `${prefix}${c}`),
    );
    return candidates.filter((c) => dirty.has(`${prefix}${c}`));
  } catch {
    return candidates;
  }
}
