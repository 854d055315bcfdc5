/**
 * How long a request may still wait for the store's write lock (docs/server.md §7). The resident
 * server runs one request at a time while SQLite waits, so each request waiting the whole bound
 * would make the n-th answer after n bounds. Once a request gave up on the lock, the lock counts
 * as held since that request began waiting: requests during the next bound wait only a tenth of it
 * (enough for another process's ordinary commit), so each answers soon after the first refusal.
 * Two bounds after the spell began, a request waits the whole bound again.
 */
export function lockWaitLeft(boundSeconds: number, heldSince: number | null, now: number): number {
  if (!inSpell(boundSeconds, heldSince, now)) return boundSeconds;
  return Math.max(boundSeconds / 10, boundSeconds - (now - heldSince!) / 1000);
}

/** Whether a lock found held since `heldSince` still counts as held. */
export function inSpell(boundSeconds: number, heldSince: number | null, now: number): boolean {
  return heldSince !== null && now >= heldSince && now - heldSince < 2 * boundSeconds * 1000;
}
