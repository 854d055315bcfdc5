/** Facts about a session needed to judge liveness (docs/product.md §4.1). */
export interface LivenessFacts {
  lastSeen: number;
  ended: boolean;
  /** Whether the recorded agent process still runs (same pid and start time); null when unknown. */
  processAlive: boolean | null;
  /**
   * Whether the UI process the person sees still runs; null when Tandem could not tell which it is.
   * Codex runs hooks under an app-server daemon that outlives its UI, so only this says the person left.
   */
  uiAlive?: boolean | null;
}

/**
 * After the person's UI is gone a session stays live only this long after its last hook: work the
 * client keeps running without a UI ("any running work continues") still shows while it acts.
 */
export const UI_GONE_GRACE_MS = 5000;

/**
 * A session is live while its UI runs (when known) and its agent process runs, or it was seen
 * within the freshness window; once its known UI is gone, only within the short grace.
 */
export function isLive(f: LivenessFacts, now: number, freshnessSeconds: number): boolean {
  if (f.ended) return false;
  const age = now - f.lastSeen;
  if (f.uiAlive === false) return age <= Math.min(UI_GONE_GRACE_MS, freshnessSeconds * 1000);
  if (f.processAlive === true) return true;
  return age <= freshnessSeconds * 1000;
}

/** "12s", "4m", "3h", "2d": compact ages for messages and the status box. */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}
