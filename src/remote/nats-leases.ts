import {
  beatenBy,
  type KvLease,
  leaseKey,
  leasesDocOf,
  planRelease,
  planReserve,
} from "../core/remote/kv-leases.js";
import { type Holder, isExpired, type Lease, type LeaseRequest, leasesText } from "../core/remote/leases.js";
import { allLeases, createKey, deleteKey, updateKey } from "./nats/kv.js";
import { type NatsLink, NatsLinkError, type NatsSettings, openNats } from "./nats/link.js";
import { shownUrl } from "./nats-settings.js";

/**
 * `tandem reserve` over NATS (decision 0063): a key per path, taken by create-if-absent or an
 * update on the revision read. A write that finds its key moved lost a race on that path only:
 * read again and decide again, so racers on one path get one winner, the rest see it taken, and
 * racers on different paths never retry at all.
 */

export type NatsLeaseResult =
  | {
      ok: true;
      won: string[];
      lost: { path: string; by: Lease }[];
      tries: number;
      now: { text: string; commit: string };
    }
  | { ok: false; message: string };

/** Rounds of read-and-write before giving up: each needs another writer to win the same key. */
const TRIES = 50;

export async function natsReserve(s: NatsSettings, req: LeaseRequest): Promise<NatsLeaseResult> {
  return withLink(s, async (link) => {
    const won: KvLease[] = [];
    const lost: { path: string; by: Lease }[] = [];
    let pending = req.paths;
    for (let tries = 1; tries <= TRIES; tries++) {
      const current = await allLeases(link.leases);
      const raced: string[] = [];
      for (const step of planReserve(current, { ...req, paths: pending }, Date.now())) {
        if (step.kind === "lost") {
          lost.push({ path: step.path, by: step.by });
          continue;
        }
        const key = leaseKey(step.path);
        const text = JSON.stringify(step.lease);
        const w =
          step.kind === "create"
            ? await createKey(link.leases, key, text)
            : await updateKey(link.leases, key, text, step.revision);
        if (w.ok) won.push({ lease: step.lease, revision: w.revision });
        else raced.push(step.path);
      }
      if (raced.length === 0) return settle(link, won, lost, tries);
      pending = raced;
      await pause(tries);
    }
    return { ok: false, message: contended(s) };
  });
}

export async function natsRelease(
  s: NatsSettings,
  holder: Holder,
  paths: string[],
): Promise<NatsLeaseResult> {
  return withLink(s, async (link) => {
    const released: string[] = [];
    for (let tries = 1; tries <= TRIES; tries++) {
      const mine = planRelease(await allLeases(link.leases), holder, paths);
      let raced = false;
      for (const m of mine) {
        const w = await deleteKey(link.leases, leaseKey(m.lease.path), m.revision);
        if (w.ok) released.push(m.lease.path);
        else raced = true;
      }
      if (!raced) return { ok: true, won: released, lost: [], tries, now: await current(link) };
      await pause(tries);
    }
    return { ok: false, message: contended(s) };
  });
}

/**
 * A directory and a path inside it are two keys: after writing, a lease that overlaps another
 * checkout's earlier one withdraws, so of two overlapping reservations made at once one stands.
 */
async function settle(
  link: NatsLink,
  won: KvLease[],
  lost: { path: string; by: Lease }[],
  tries: number,
): Promise<NatsLeaseResult> {
  let all = await allLeases(link.leases);
  const kept: string[] = [];
  for (const w of won) {
    const by = beatenBy(w, all, Date.now());
    if (!by) {
      kept.push(w.lease.path);
      continue;
    }
    await deleteKey(link.leases, leaseKey(w.lease.path), w.revision);
    lost.push({ path: w.lease.path, by });
  }
  if (kept.length < won.length) all = await allLeases(link.leases);
  return { ok: true, won: kept, lost, tries, now: docOf(all) };
}

/**
 * Deletes the keys of leases expired (with the skew margin) by `now`, each on the revision read:
 * a lease extended or taken meanwhile stays. What a sync round does, so dead keys do not pile up.
 * Returns the leases still there.
 */
export async function dropExpired(link: NatsLink, all: readonly KvLease[], now: number): Promise<KvLease[]> {
  const kept: KvLease[] = [];
  for (const l of all) {
    if (!isExpired(l.lease, now)) kept.push(l);
    else await deleteKey(link.leases, leaseKey(l.lease.path), l.revision);
  }
  return kept;
}

async function current(link: NatsLink): Promise<{ text: string; commit: string }> {
  return docOf(await allLeases(link.leases));
}

function docOf(all: KvLease[]): { text: string; commit: string } {
  const newest = Math.max(0, ...all.map((l) => l.revision));
  return { text: leasesText(leasesDocOf(all, Date.now())), commit: `nats:${newest}` };
}

async function withLink(
  s: NatsSettings,
  run: (link: NatsLink) => Promise<NatsLeaseResult>,
): Promise<NatsLeaseResult> {
  let link: NatsLink;
  try {
    link = await openNats(s);
  } catch (err) {
    if (!(err instanceof NatsLinkError)) throw err;
    return {
      ok: false,
      message: `${err.message}; nothing was reserved. Check that the server runs with JetStream and TANDEM_NATS_URL / remote.nats.url (Tandem's doctor tries it), then retry.`,
    };
  }
  try {
    return await run(link);
  } finally {
    await link.close().catch(() => {});
  }
}

function contended(s: NatsSettings): string {
  return `other clones kept writing the same keys on ${shownUrl(s.url)} for ${TRIES} rounds; retry in a moment.`;
}

/** Jittered backoff: racers on one key spread out instead of colliding again in step. */
function pause(tries: number): Promise<void> {
  return new Promise((ok) => setTimeout(ok, Math.floor(Math.random() * 20 * Math.min(tries, 10)) + 5));
}
