/** Facts about a session needed to judge liveness (docs/product.md §4.1). */
export interface LivenessFacts {
  lastSeen: number;
  ended: boolean;
  /** Whether the recorded agent process still runs (same pid and start time); null when unknown. */
  processAlive: boolean | null;
}

/** A session is live while its agent process runs or it was seen within the freshness window. */
export function isLive(f: LivenessFacts, now: number, freshnessSeconds: number): boolean {
  if (f.ended) return false;
  if (f.processAlive === true) return true;
  return now - f.lastSeen <= freshnessSeconds * 1000;
}

/** "12s", "4m", "3h", "2d": compact ages for messages and the status box. */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}
