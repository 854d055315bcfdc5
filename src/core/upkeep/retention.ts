/**
 * What `tandem gc` may let go of (docs/decisions/0012). Pure: the store gathers the facts, these
 * rules decide, and nothing here can weaken a guarantee — everything not clearly finished and
 * older than the bound is kept.
 */

/** How long a blob written by a capture or the safety net stays, referenced or not: its writer
 * records it within that time, so a blob still on its way into the ledger is never swept. */
export const BLOB_GRACE_MS = 3_600_000;

export interface SessionFacts {
  id: string;
  ended: boolean;
  lastSeen: number;
  /** Active claims it still holds (an ended session normally has none). */
  claims: number;
  /** Events that compaction would remove; 0 once compacted. */
  compactable: number;
}

/**
 * Ended sessions last seen before the cutoff, holding nothing, with events left to summarise.
 * A live, stale or recent session keeps its full history.
 */
export function sessionsToCompact(sessions: readonly SessionFacts[], cutoff: number): string[] {
  return sessions
    .filter((s) => s.ended && s.lastSeen < cutoff && s.claims === 0 && s.compactable > 0)
    .map((s) => s.id);
}

export interface SubagentFacts {
  id: string;
  removal: "removed" | "discarded" | null;
  /** When its worktree was removed or discarded. */
  removedTs: number | null;
  /** Stages of its applies (one per target); "completed" is done. */
  applyStages: readonly string[];
  expired: boolean;
}

/**
 * Sub-agents whose artifacts nothing can need any more: discarded, or removed after an apply
 * that completed everywhere it started, longer ago than the cutoff. A removed sub-agent never
 * applied keeps its artifact: it is the only copy of that work.
 */
export function subagentsToExpire(subs: readonly SubagentFacts[], cutoff: number): string[] {
  return subs
    .filter((s) => {
      if (s.expired || s.removal === null || s.removedTs === null || s.removedTs >= cutoff) return false;
      if (s.removal === "discarded") return true;
      return s.applyStages.length > 0 && s.applyStages.every((st) => st === "completed");
    })
    .map((s) => s.id);
}

export interface PreservedFacts {
  key: [worktree: string, path: string, owner: string, version: number];
  ts: number;
  /** The owner session: whether it ended and when it was last seen; null when unknown. */
  owner: { ended: boolean; lastSeen: number } | null;
}

/**
 * Preserved versions older than the cutoff whose owner has ended before it (or is unknown):
 * nobody is left to recover them. A live, stale or recent owner keeps every version.
 */
export function preservedToExpire(
  versions: readonly PreservedFacts[],
  cutoff: number,
): PreservedFacts["key"][] {
  return versions
    .filter((v) => v.ts < cutoff && (v.owner === null || (v.owner.ended && v.owner.lastSeen < cutoff)))
    .map((v) => v.key);
}

export interface BlobFacts {
  name: string;
  mtimeMs: number;
}

/**
 * Blob files no record references and no writer can still be about to record: untouched within
 * the grace, or (`released`: blob → when its last record was written) untouched since their last
 * record, which this run expired — a writer storing the same bytes again touches the file after.
 */
export function blobsToDelete<B extends BlobFacts>(
  blobs: readonly B[],
  referenced: ReadonlySet<string>,
  now: number,
  released: ReadonlyMap<string, number> = new Map(),
): B[] {
  return blobs.filter((b) => !referenced.has(b.name) && now - b.mtimeMs >= graceOf(b.name, now, released));
}

/** How long a blob must have been untouched to go: the hour, or since its expired record. */
export function graceOf(name: string, now: number, released: ReadonlyMap<string, number>): number {
  const at = released.get(name);
  return at === undefined ? BLOB_GRACE_MS : Math.min(BLOB_GRACE_MS, Math.max(0, now - at));
}

/** "30d", "12h", "90m", "0d": the --older-than bound in milliseconds; null when unreadable. */
export function parseAge(text: string): number | null {
  const m = /^(\d+)\s*([dhm])$/.exec(text.trim());
  if (!m) return null;
  const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[m[2] as "d" | "h" | "m"];
  return Number(m[1]) * unit;
}
