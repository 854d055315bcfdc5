import { normalLeasePath } from "./lease-refs.js";
import { type Holder, isExpired, type Lease, type LeaseRequest, overlaps } from "./leases.js";

/**
 * What a reservation, a release, a put-back or a migration changes among the per-path lease refs
 * (decision 0062), decided over the refs as fetched. The shell pushes the deletes, then the writes,
 * each as one atomic push where every ref must still hold what was read.
 */

/** A lease as its ref on the remote holds it: `commit` is the expected old value of a push. */
export interface HeldLease {
  lease: Lease;
  commit: string;
}

export interface LeaseWrite {
  lease: Lease;
  /** The commit the path's ref must still point at; null: the ref must not exist. */
  expected: string | null;
}

export interface LeasePlan {
  won: string[];
  lost: { path: string; by: Lease }[];
  /** Refs to delete first (expired leases in the way, or the holder's own under a new directory lease). */
  deletes: HeldLease[];
  writes: LeaseWrite[];
}

const isAncestor = (dir: string, path: string) => path.startsWith(`${dir}/`);

/**
 * Places `wanted` leases (each for its holder) among `held`: a live lease of another checkout on
 * an overlapping path loses the path to it; a path under a lease the holder already has is won by
 * that lease; otherwise expired leases in the way and the holder's own leases below go, and the
 * path's ref is written over what it holds. Ancestors are placed first, so a request for `src` and
 * `src/a.ts` writes one ref.
 */
export function planLeases(held: readonly HeldLease[], wanted: readonly Lease[], now: number): LeasePlan {
  const plan: LeasePlan = { won: [], lost: [], deletes: [], writes: [] };
  const gone = new Set<string>();
  const placed: Lease[] = [];
  const order = [...wanted].sort((a, b) => a.path.length - b.path.length || a.path.localeCompare(b.path));
  for (const want of order) {
    const path = normalLeasePath(want.path);
    const lease = { ...want, path };
    if (placed.some((p) => p.path === path || isAncestor(p.path, path))) {
      plan.won.push(path);
      continue;
    }
    const inWay = held.filter((h) => !gone.has(h.commit + h.lease.path) && overlaps(h.lease.path, path));
    const by = inWay.find((h) => h.lease.checkout !== lease.checkout && !isExpired(h.lease, now));
    if (by) {
      plan.lost.push({ path, by: by.lease });
      continue;
    }
    // The holder's live lease on a directory above already covers the path (it is not shortened).
    const cover = inWay.find((h) => isAncestor(h.lease.path, path) && !isExpired(h.lease, now));
    plan.won.push(path);
    if (cover) continue;
    const exact = inWay.find((h) => h.lease.path === path) ?? null;
    for (const h of inWay.filter((x) => x !== exact)) {
      gone.add(h.commit + h.lease.path);
      plan.deletes.push(h);
    }
    plan.writes.push({ lease, expected: exact?.commit ?? null });
    placed.push(lease);
  }
  return plan;
}

/** The leases a reservation asks for, one per path. */
export function requestedLeases(req: LeaseRequest, now: number): Lease[] {
  return req.paths.map((path) => ({
    path,
    checkout: req.holder.checkout,
    checkoutName: req.holder.name,
    session: req.session,
    task: req.task,
    expires: now + req.ttlMs,
  }));
}

/** Gives up the holder's leases on `paths` and below them: their refs are deleted. */
export function planRelease(held: readonly HeldLease[], holder: Holder, paths: readonly string[]): LeasePlan {
  const roots = paths.map(normalLeasePath);
  const mine = held.filter(
    (h) =>
      h.lease.checkout === holder.checkout &&
      roots.some((r) => h.lease.path === r || isAncestor(r, h.lease.path)),
  );
  return { won: mine.map((h) => h.lease.path), lost: [], deletes: mine, writes: [] };
}

/**
 * This checkout's live leases it last wrote (`mine`) that the remote no longer holds, as it
 * wrote them: gone because a forced push deleted or rewrote their refs (decision 0023).
 */
export function missingLeases(
  mine: readonly Lease[],
  held: readonly HeldLease[],
  checkout: string,
  now: number,
): Lease[] {
  return mine.filter(
    (l) =>
      l.checkout === checkout &&
      !isExpired(l, now) &&
      !held.some(
        (h) =>
          h.lease.checkout === checkout &&
          (h.lease.path === l.path || isAncestor(h.lease.path, l.path)) &&
          h.lease.expires >= l.expires,
      ),
  );
}

/**
 * The live leases of an old single document (before decision 0062) to write as refs: those no
 * per-path ref overlaps (a ref is newer than the document), and of a holder's nested leases only
 * the outermost.
 */
export function migratedLeases(old: readonly Lease[], held: readonly HeldLease[], now: number): Lease[] {
  const out: Lease[] = [];
  const live = old
    .filter((l) => !isExpired(l, now))
    .map((l) => ({ ...l, path: normalLeasePath(l.path) }))
    .sort((a, b) => a.path.length - b.path.length || a.path.localeCompare(b.path));
  for (const l of live) {
    if (held.some((h) => overlaps(h.lease.path, l.path))) continue;
    if (out.some((o) => overlaps(o.path, l.path))) continue;
    out.push(l);
  }
  return out;
}
