import * as z from "zod/mini";
import { type PresenceDoc, parsePresence, presenceSubstance } from "./presence.js";

/**
 * Presence over a NATS key-value bucket (docs/remote.md, decision 0063): one key per checkout,
 * the bucket's max age as its time to live. A reader keeps what it has seen and asks only for the
 * revisions after it. NATS 2.9 expires keys without telling watchers, so the reader also drops an
 * entry whose server time is older than the time to live.
 */

export interface PresenceChange {
  key: string;
  revision: number;
  /** When the server stored it (its clock), ms. */
  created: number;
  op: "PUT" | "DEL" | "PURGE";
  text: string | null;
}

const cacheSchema = z.object({
  revision: z.number(),
  entries: z.record(z.string(), z.object({ created: z.number(), text: z.string() })),
});

export type PresenceCache = z.infer<typeof cacheSchema>;

export const EMPTY_CACHE: PresenceCache = { revision: 0, entries: {} };

export function parseCache(text: string): PresenceCache | null {
  try {
    const parsed = cacheSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The key of a checkout's presence: its id is hex, so it is a valid key as it is. */
export const presenceKey = (checkout: string): string => `p.${checkout}`;

/** Where to resume: after the cache, unless the bucket is newer than the cache (made again). */
export function resumeFrom(cache: PresenceCache, lastSeq: number): PresenceCache {
  return lastSeq < cache.revision ? EMPTY_CACHE : cache;
}

/** The cache after `changes` (in revision order), less the entries the server has expired. */
export function applyPresenceChanges(
  cache: PresenceCache,
  changes: readonly PresenceChange[],
  now: number,
  ttlMs: number,
): PresenceCache {
  const entries = { ...cache.entries };
  let revision = cache.revision;
  for (const c of changes) {
    if (c.revision <= revision) continue;
    revision = c.revision;
    if (c.op === "PUT" && c.text !== null) entries[c.key] = { created: c.created, text: c.text };
    else delete entries[c.key];
  }
  for (const [key, e] of Object.entries(entries)) if (e.created + ttlMs <= now) delete entries[key];
  return { revision, entries };
}

export function cachedDocs(cache: PresenceCache): PresenceDoc[] {
  return Object.values(cache.entries).flatMap((e) => parsePresence(e.text) ?? []);
}

/**
 * Whether to put this checkout's document: when the server has none, when the substance changed,
 * or when the stored one is a third of the time to live old (so it never lapses while we live).
 */
export function shouldRefresh(
  mine: PresenceDoc,
  stored: { created: number; text: string } | null,
  ttlMs: number,
  now: number,
): boolean {
  const doc = stored ? parsePresence(stored.text) : null;
  if (!stored || !doc) return true;
  if (presenceSubstance(doc) !== presenceSubstance(mine)) return true;
  return now - stored.created >= ttlMs / 3;
}
