import type { PeerSummary } from "../core/ritual/start-context.js";
import { type SessionView, sessionViews } from "../sessions/view.js";
import { heldPathNames } from "../store/claims/reads.js";
import type { Db } from "../store/db.js";

/** Live sessions other than `self`, with the paths they hold; `views`: sessionViews() already read. */
export function livePeers(
  db: Db,
  self: string,
  freshnessSeconds: number,
  now: number,
  views: readonly SessionView[] = sessionViews(db, freshnessSeconds, now),
): PeerSummary[] {
  return views
    .filter((s) => s.live && s.id !== self)
    .map((s) => ({
      name: s.name,
      client: s.client,
      task: s.task,
      claims: heldPathNames(db, s.id),
      lastSeen: s.lastSeen,
    }));
}
