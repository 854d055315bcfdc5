import type { PeerSummary } from "../core/session-context.js";
import { sessionViews } from "../sessions/view.js";
import type { Db } from "../store/db.js";

/** Live sessions other than `self`, with the paths they hold. */
export function livePeers(db: Db, self: string, freshnessSeconds: number, now: number): PeerSummary[] {
  const claimStmt = db.prepare("SELECT path FROM claims WHERE session_id = ? ORDER BY path");
  return sessionViews(db, freshnessSeconds, now)
    .filter((s) => s.live && s.id !== self)
    .map((s) => ({
      name: s.name,
      client: s.client,
      task: s.task,
      claims: (claimStmt.all(s.id) as { path: string }[]).map((r) => r.path),
      lastSeen: s.lastSeen,
    }));
}
