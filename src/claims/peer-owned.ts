import type { Holder } from "../core/claims/decide.js";
import { ownerRows } from "../store/claims/reads.js";
import type { Db } from "../store/db.js";
import { sessionById } from "../store/sessions/rows.js";
import { groupOf, holderOf } from "./holders.js";

/** Who owns a path: a live session outside the caller's group that claimed or touched it. */
export type PeerOwners = Map<string, Holder>;

export interface PeerQuery {
  /** The worktree the keys are relative to (the coordination root). */
  worktree: string;
  self: string;
  group: string;
  now: number;
  freshnessSeconds: number;
  /** Only these paths (a command's named files): a seek per path instead of reading every row. */
  paths?: readonly string[];
}

/**
 * Paths of `q.worktree` that another live session (outside the caller's group)
 * claimed or touched through its own commands, keyed by path. Each session is
 * judged once, however many paths it owns.
 */
export function peerOwned(db: Db, q: PeerQuery): PeerOwners {
  const owners: PeerOwners = new Map();
  const rows = ownerRows(db, q.worktree, q.paths);
  const peers = new Map<string, Holder | null>();
  const livePeer = (id: string): Holder | null => {
    if (!peers.has(id)) {
      const s = sessionById(db, id);
      const h = s && groupOf(db, s) !== q.group ? holderOf(db, s, q.now, q.freshnessSeconds) : null;
      peers.set(id, h?.live ? h : null);
    }
    return peers.get(id)!;
  };
  for (const r of rows) {
    const holder = r.session_id === q.self ? null : livePeer(r.session_id);
    if (holder && !owners.has(r.path)) owners.set(r.path, holder);
  }
  return owners;
}
