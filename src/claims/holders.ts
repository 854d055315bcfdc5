import type { HeldClaim, Holder } from "../core/claims/decide.js";
import { isLive } from "../core/sessions/liveness.js";
import { livenessFacts } from "../sessions/liveness.js";
import { claimsWithAcquiredTs } from "../store/claims/reads.js";
import type { Db } from "../store/db.js";
import { type SessionRow, sessionById } from "../store/sessions/rows.js";

/** The top of a session's parent chain: a parent and its sub-agents form one group. */
export function groupOf(db: Db, session: SessionRow): string {
  let current = session;
  for (let hops = 0; current.parent_id && hops < 16; hops++) {
    const parent = sessionById(db, current.parent_id);
    if (!parent) return current.parent_id;
    current = parent;
  }
  return current.id;
}

export function holderOf(db: Db, s: SessionRow, now: number, freshnessSeconds: number): Holder {
  return {
    id: s.id,
    name: s.name,
    client: s.client,
    task: s.task,
    lastSeen: s.last_seen,
    live: isLive(livenessFacts(s), now, freshnessSeconds),
    group: groupOf(db, s),
  };
}

/** Every active claim with its holder judged now; `clean` is filled in by the caller when needed. */
export function loadHeld(db: Db, now: number, freshnessSeconds: number): HeldClaim[] {
  const rows = claimsWithAcquiredTs(db);
  const holders = new Map<string, Holder>();
  const held: HeldClaim[] = [];
  for (const row of rows) {
    let holder = holders.get(row.session_id);
    if (!holder) {
      const s = sessionById(db, row.session_id);
      if (!s) continue;
      holder = holderOf(db, s, now, freshnessSeconds);
      holders.set(row.session_id, holder);
    }
    held.push({ worktree: row.worktree, path: row.path, holder, acquiredAt: row.acquired_ts, clean: null });
  }
  return held;
}
