import type { KV, KvEntry } from "@nats-io/kv";
import { type KvLease, leaseOf } from "../../core/remote/kv-leases.js";
import type { PresenceChange } from "../../core/remote/kv-presence.js";

/** Reads and writes of the two buckets, as plain data (decision 0063). */

/** JetStream's "wrong last sequence": the key is not at the revision the write expected. */
const WRONG_LAST_SEQUENCE = 10071;

export type Write = { ok: true; revision: number } | { ok: false };

function isConflict(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  return e.code === WRONG_LAST_SEQUENCE || /wrong last sequence/i.test(String(e.message));
}

async function guarded(write: () => Promise<number | undefined>): Promise<Write> {
  try {
    return { ok: true, revision: (await write()) ?? 0 };
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
export const putKey = (kv: KV, key: string, text: string) => kv.put(key, text);

/** The bucket's newest revision (0: never written). */
export async function lastRevision(kv: KV): Promise<number> {
  return (await kv.status()).streamInfo.state.last_seq;
}

/**
 * Every entry written after `after`, oldest first: a watch resumed at the next revision, read until
 * the server says nothing is pending. An idle gap of `idleMs` ends it too (the last entries expired
 * between asking and reading).
 */
async function entriesAfter(kv: KV, after: number, idleMs: number): Promise<KvEntry[]> {
  const last = await lastRevision(kv);
  if (last <= after) return [];
  const watch = await kv.watch(after > 0 ? { resumeFromRevision: after + 1 } : {});
  const out: KvEntry[] = [];
  let idle: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(idle);
    idle = setTimeout(() => watch.stop(), idleMs);
  };
  arm();
  try {
    for await (const e of watch) {
      out.push(e);
      if (e.delta === 0 || e.revision >= last) break;
      arm();
    }
  } finally {
    clearTimeout(idle);
    watch.stop();
  }
  return out;
}

/** The presence changes since revision `after`: what a reader that kept the rest needs. */
export async function presenceChanges(kv: KV, after: number, idleMs: number): Promise<PresenceChange[]> {
  const entries = await entriesAfter(kv, after, idleMs);
  return entries.map((e) => ({
    key: e.key,
    revision: e.revision,
    created: e.created.getTime(),
    op: e.operation,
    text: e.operation === "PUT" ? e.string() : null,
  }));
}

/** Every lease key's current value with its revision; deleted keys and unreadable values are skipped. */
export async function allLeases(kv: KV, idleMs: number): Promise<KvLease[]> {
  const latest = new Map<string, KvEntry>();
  for (const e of await entriesAfter(kv, 0, idleMs)) latest.set(e.key, e);
  return [...latest.values()].flatMap((e) => {
    if (e.operation !== "PUT") return [];
    const lease = leaseOf(e.string());
    return lease ? [{ lease, revision: e.revision }] : [];
  });
}
