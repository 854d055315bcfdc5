import { dirtyPaths } from "../git/status.js";
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
  const rows = db
    .prepare(
      `SELECT path FROM claim_history WHERE session_id = ? AND worktree = ?
       UNION SELECT path FROM touched WHERE session_id = ? AND worktree = ? AND unattributed = 0`,
    )
    .all(sessionId, root, sessionId, root) as { path: string }[];
  const candidates = [...new Set([...held, ...rows.map((r) => r.path)])].sort();
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
