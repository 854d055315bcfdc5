import type { KV, KvEntry } from "@nats-io/kv";
import { type KvLease, leaseOf } from "../../core/remote/kv-leases.js";
import type { PresenceChange } from "../../core/remote/kv-presence.js";
import { NatsLinkError } from "./link.js";

/** Reads and writes of the two buckets, as plain data (decision 0063). */

/** JetStream's "wrong last sequence": the key is not at the revision the write expected. */
const WRONG_LAST_SEQUENCE = 10071;

export type Write = { ok: true; revision: number } | { ok: false };

function isConflict(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  return e.code === WRONG_LAST_SEQUENCE || /wrong last sequence/i.test(String(e.message));
}

/**
 * "No responders" on a write: nothing listens on the key's subject yet. Seen right after a bucket
 * is made while other clones make it too (JetStream attaches the stream's subjects a moment after
 * answering the create), so such a write is tried again for a little while before it counts.
 */
function isNoResponders(err: unknown): boolean {
  for (let e = err as { message?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (/no responders/i.test(String(e.message))) return true;
  }
  return false;
}

const NO_RESPONDER_TRIES = 20;

/** Runs a write, again while it finds no responders (for at most about five seconds). */
async function settled<T>(write: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await write();
    } catch (err) {
      if (!isNoResponders(err) || tries >= NO_RESPONDER_TRIES) throw err;
      await new Promise((ok) => setTimeout(ok, 25 * tries));
    }
  }
}

async function guarded(write: () => Promise<number | undefined>): Promise<Write> {
  try {
    return { ok: true, revision: (await settled(write)) ?? 0 };
  } catch (err) {
    if (isConflict(err)) return { ok: false };
    throw err;
  }
}

export const createKey = (kv: KV, key: string, text: string) => guarded(() => kv.create(key, text));
export const updateKey = (kv: KV, key: string, text: string, revision: number) =>
  guarded(() => kv.update(key, text, revision));
export const deleteKey = (kv: KV, key: string, revision: number) =>
  guarded(async () => {
    await kv.delete(key, { previousSeq: revision });
    return undefined;
  });
export const putKey = (kv: KV, key: string, text: string) => settled(() => kv.put(key, text));

/** The bucket's newest revision (0: never written). */
export async function lastRevision(kv: KV): Promise<number> {
  return (await kv.status()).streamInfo.state.last_seq;
}

/**
 * No entry for this long while a listing still expects one: the server stalled. The listing fails
 * (a NatsLinkError) rather than end early, since a short listing would let two overlapping leases
 * both stand. It is a hang guard, not a way to finish: a finished listing ends on its own.
 */
const STALL_MS = 30_000;

/**
 * Every entry written after `after`, oldest first: a watch resumed at the next revision, read until
 * it reaches the newest revision or the server says nothing is pending. A stream holding no
 * messages is empty at once: the buckets expire by age only, so while anything remains the newest
 * message does too (history 1 keeps each key's newest entry, a delete marker included).
 */
async function entriesAfter(kv: KV, after: number): Promise<KvEntry[]> {
  const state = (await kv.status()).streamInfo.state;
  const last = state.last_seq;
  if (last <= after || state.messages === 0) return [];
  const watch = await kv.watch(after > 0 ? { resumeFromRevision: after + 1 } : {});
  const out: KvEntry[] = [];
  let stalled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      stalled = true;
      watch.stop();
    }, STALL_MS);
  };
  arm();
  try {
    for await (const e of watch) {
      out.push(e);
      if (e.delta === 0 || e.revision >= last) return out;
      arm();
    }
  } finally {
    clearTimeout(timer);
    watch.stop();
  }
  if (stalled)
    throw new NatsLinkError(`the NATS server sent nothing for ${STALL_MS / 1000} s while listing a bucket`);
  return out;
}

/** The presence changes since revision `after`: what a reader that kept the rest needs. */
export async function presenceChanges(kv: KV, after: number): Promise<PresenceChange[]> {
  const entries = await entriesAfter(kv, after);
  return entries.map((e) => ({
    key: e.key,
    revision: e.revision,
    created: e.created.getTime(),
    op: e.operation,
    text: e.operation === "PUT" ? e.string() : null,
  }));
}

/** Every lease key's current value with its revision; deleted keys and unreadable values are skipped. */
export async function allLeases(kv: KV): Promise<KvLease[]> {
  const latest = new Map<string, KvEntry>();
  for (const e of await entriesAfter(kv, 0)) latest.set(e.key, e);
  return [...latest.values()].flatMap((e) => {
    if (e.operation !== "PUT") return [];
    const lease = leaseOf(e.string());
    return lease ? [{ lease, revision: e.revision }] : [];
  });
}
