import type { PeerSummary } from "../core/session-context.js";
import { type SessionView, sessionViews } from "../sessions/view.js";
import type { Db } from "../store/db.js";

/** Live sessions other than `self`, with the paths they hold; `views`: sessionViews() already read. */
export function livePeers(
  db: Db,
  self: string,
  freshnessSeconds: number,
  now: number,
  views: readonly SessionView[] = sessionViews(db, freshnessSeconds, now),
): PeerSummary[] {
  const claimStmt = db.prepare("SELECT path FROM claims WHERE session_id = ? ORDER BY path");
  return views
    .filter((s) => s.live && s.id !== self)
    .map((s) => ({
      name: s.name,
      client: s.client,
      task: s.task,
      claims: (claimStmt.all(s.id) as { path: string }[]).map((r) => r.path),
      lastSeen: s.lastSeen,
    }));
}
