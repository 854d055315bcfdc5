import {
  aliveDue,
  aliveKey,
  applyPresenceChanges,
  DOC_MAX_AGE_MS,
  type PresenceSeen,
  presenceKey,
  resumeFrom,
  shouldRefresh,
} from "../../core/remote/kv-presence.js";
import { type PresenceDoc, presenceText } from "../../core/remote/presence.js";
import { lastRevision, presenceChanges, putKey } from "./kv.js";
import type { NatsLink } from "./link.js";

/**
 * One exchange of presence (decision 0063): read what changed in both buckets since `seen`, put
 * this checkout's document if it changed (or nears the documents' max age), and refresh its alive
 * mark when a third of the TTL has passed, if it has live sessions. A reader thus receives the
 * documents that changed and the small alive marks, never every document every round.
 */
export async function exchangePresence(
  link: NatsLink,
  seen: PresenceSeen,
  mine: PresenceDoc,
  o: { ttlMs: number; now: () => number },
): Promise<{ seen: PresenceSeen; published: boolean }> {
  const read = async (kv: NatsLink["presence"], cache: PresenceSeen["docs"], ageMs: number) => {
    const from = resumeFrom(cache, await lastRevision(kv));
    return applyPresenceChanges(from, await presenceChanges(kv, from.revision), o.now(), ageMs);
  };
  let docs = await read(link.presence, seen.docs, DOC_MAX_AGE_MS);
  let alive = await read(link.alive, seen.alive, o.ttlMs);
  let published = false;
  const id = mine.checkout.id;
  // Revisions stay: the next exchange reads these puts back with whatever came between.
  if (shouldRefresh(mine, docs.entries[presenceKey(id)] ?? null, DOC_MAX_AGE_MS, o.now())) {
    const text = presenceText(mine);
    await putKey(link.presence, presenceKey(id), text);
    docs = { ...docs, entries: { ...docs.entries, [presenceKey(id)]: { created: o.now(), text } } };
    published = true;
  }
  if (mine.sessions.length > 0 && aliveDue({ docs, alive }, id, o.ttlMs, o.now())) {
    await putKey(link.alive, aliveKey(id), "");
    alive = { ...alive, entries: { ...alive.entries, [aliveKey(id)]: { created: o.now(), text: "" } } };
    published = true;
  }
  return { seen: { docs, alive }, published };
}
