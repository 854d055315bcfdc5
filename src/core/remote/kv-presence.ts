import * as z from "zod/mini";
import { type PresenceDoc, parsePresence, presenceSubstance } from "./presence.js";

/**
 * Presence over NATS key-value buckets (docs/remote.md, decision 0063). Two buckets: the
 * documents, put only when they change (and a day's max age collects the dead), and a small
 * "alive" key per checkout whose bucket's max age is the presence TTL, refreshed while sessions
 * live. A document counts while its checkout's alive key does. A reader keeps what it has seen of
 * each bucket and asks only for the revisions after it. NATS 2.9 expires keys without telling
 * watchers, so the reader also drops an entry whose server time is older than the bucket's age.
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

/** What a reader has seen of one bucket. */
export type PresenceCache = z.infer<typeof cacheSchema>;

export const EMPTY_CACHE: PresenceCache = { revision: 0, entries: {} };

const seenSchema = z.object({ docs: cacheSchema, alive: cacheSchema });

/** What a reader has seen of both buckets, kept between rounds. */
export type PresenceSeen = z.infer<typeof seenSchema>;

export const NOTHING_SEEN: PresenceSeen = { docs: EMPTY_CACHE, alive: EMPTY_CACHE };

/** Documents live this long without a change; a live checkout puts its own again well before. */
export const DOC_MAX_AGE_MS = 86_400_000;

export function parseSeen(text: string): PresenceSeen | null {
  try {
    const parsed = seenSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The key of a checkout's document and of its alive mark: its id is hex, a valid key as it is. */
export const presenceKey = (checkout: string): string => `p.${checkout}`;
export const aliveKey = (checkout: string): string => `a.${checkout}`;

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

/**
 * The documents of checkouts whose alive mark the reader still holds, dated by that mark (as a
 * document over git is dated by its last re-publish): views judge its age and its sessions by it.
 */
export function liveDocs(seen: PresenceSeen): PresenceDoc[] {
  return Object.values(seen.docs.entries).flatMap((e) => {
    const d = parsePresence(e.text);
    const alive = d ? seen.alive.entries[aliveKey(d.checkout.id)] : undefined;
    return d && alive ? [{ ...d, published: Math.max(d.published, alive.created) }] : [];
  });
}

/** Whether this checkout's alive mark is missing or a third of the TTL old: put it again. */
export function aliveDue(seen: PresenceSeen, checkout: string, ttlMs: number, now: number): boolean {
  const mine = seen.alive.entries[aliveKey(checkout)];
  return !mine || now - mine.created >= ttlMs / 3;
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
