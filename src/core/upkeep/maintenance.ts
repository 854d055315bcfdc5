/**
 * What a session-start hook does about the store's upkeep (docs/decisions/0012). The full
 * structural check (`quick_check`) reads the whole file; on a small store it runs inline, as
 * it always did, and on a big one it moves to a background `tandem gc --auto`, at most daily,
 * which marks the store corrupt if it finds damage so every gate closes from then on. The same
 * background run does `store.autoGc`.
 */

/** Stores up to this size are checked in the hook itself (a few ms). */
export const INLINE_AUDIT_BYTES = 8 * 1024 * 1024;
export const MAINTENANCE_EVERY_MS = 86_400_000;

export interface UpkeepFacts {
  storeBytes: number;
  /** When the last background upkeep started; null when never. */
  lastStarted: number | null;
  autoGc: boolean;
  now: number;
  inlineLimit?: number;
}

export interface UpkeepPlan {
  auditInline: boolean;
  startBackground: boolean;
}

export function upkeepPlan(f: UpkeepFacts): UpkeepPlan {
  const auditInline = f.storeBytes <= (f.inlineLimit ?? INLINE_AUDIT_BYTES);
  const due = f.lastStarted === null || f.now - f.lastStarted >= MAINTENANCE_EVERY_MS;
  return { auditInline, startBackground: due && (f.autoGc || !auditInline) };
}

/** Past any of these, `tandem doctor` suggests `tandem gc`. */
export const GC_SUGGESTED = { bytes: 256 * 1024 * 1024, events: 500_000, ageMs: 90 * 86_400_000 };

export interface StoreSize {
  dbBytes: number;
  events: number;
  /** Time of the oldest event; null for an empty ledger. */
  oldestTs: number | null;
  blobBytes: number;
}

/** Why a gc is worth running now, or null when the store is small and young. */
export function gcSuggestion(s: StoreSize, now: number): string | null {
  const why: string[] = [];
  if (s.dbBytes + s.blobBytes > GC_SUGGESTED.bytes) why.push("it holds more than 256 MB");
  if (s.events > GC_SUGGESTED.events) why.push("it holds more than 500,000 events");
  if (s.oldestTs !== null && now - s.oldestTs > GC_SUGGESTED.ageMs)
    why.push("its oldest event is over 90 days old");
  return why.length ? why.join(", ") : null;
}
