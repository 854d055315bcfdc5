import {
  type Holder,
  isExpired,
  LEASES_FORMAT,
  type Lease,
  type LeaseDoc,
  type LeaseRequest,
  overlaps,
  parseLeases,
} from "./leases.js";

/**
 * Leases over a NATS key-value bucket (docs/remote.md, decision 0063): one key per reserved path,
 * taken by create-if-absent or by an update on the revision read, so racers on one path have
 * exactly one winner and racers on different paths never meet. A directory and a path inside it
 * are different keys: when two checkouts take overlapping ones at once, the lower revision (the
 * earlier write, as the server ordered them) keeps it and the other withdraws.
 */

export interface KvLease {
  lease: Lease;
  revision: number;
}

/** A key per path: the path's UTF-8 in base64url, so any file name is a valid key token. */
export function leaseKey(path: string): string {
  return `l.${Buffer.from(path, "utf8").toString("base64url")}`;
}

/** A stored value as a lease; null for anything else (damaged, another format). */
export function leaseOf(text: string): Lease | null {
  return parseLeases(`{"format":${LEASES_FORMAT},"leases":[${text}]}`)?.leases[0] ?? null;
}

export type KeyStep =
  | { path: string; kind: "create"; lease: Lease }
  | { path: string; kind: "update"; revision: number; lease: Lease }
  | { path: string; kind: "lost"; by: Lease };

/** For each requested path: lost to an overlapping live lease of another checkout, else create or update its key. */
export function planReserve(current: readonly KvLease[], req: LeaseRequest, now: number): KeyStep[] {
  return req.paths.map((path): KeyStep => {
    const by = current.find(
      (c) =>
        c.lease.checkout !== req.holder.checkout && !isExpired(c.lease, now) && overlaps(c.lease.path, path),
    );
    if (by) return { path, kind: "lost", by: by.lease };
    const lease: Lease = {
      path,
      checkout: req.holder.checkout,
      checkoutName: req.holder.name,
      session: req.session,
      task: req.task,
      expires: now + req.ttlMs,
    };
    const same = current.find((c) => c.lease.path === path);
    return same ? { path, kind: "update", revision: same.revision, lease } : { path, kind: "create", lease };
  });
}

/** Another checkout's live lease that overlaps `mine` and was written before it: `mine` must go. */
export function beatenBy(mine: KvLease, all: readonly KvLease[], now: number): Lease | null {
  const earlier = all.find(
    (o) =>
      o.lease.checkout !== mine.lease.checkout &&
      o.revision < mine.revision &&
      !isExpired(o.lease, now) &&
      overlaps(o.lease.path, mine.lease.path),
  );
  return earlier?.lease ?? null;
}

/** The holder's leases on `paths` or under them (a directory releases what it holds). */
export function planRelease(
  current: readonly KvLease[],
  holder: Holder,
  paths: readonly string[],
): KvLease[] {
  const under = (path: string, p: string) => path === p || path.startsWith(`${p.replace(/\/+$/, "")}/`);
  return current.filter(
    (c) => c.lease.checkout === holder.checkout && paths.some((p) => under(c.lease.path, p)),
  );
}

/** The live leases as the one document the views read (src/store/remote/rows.ts). */
export function leasesDocOf(current: readonly KvLease[], now: number): LeaseDoc {
  const live = current.filter((c) => !isExpired(c.lease, now) && beatenBy(c, current, now) === null);
  return { format: LEASES_FORMAT, leases: live.map((c) => c.lease) };
}
