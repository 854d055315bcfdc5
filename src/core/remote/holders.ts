import { isExpired, type Lease, overlaps } from "./leases.js";
import { type Freshness, liveRemoteSessions, type PresenceDoc } from "./presence.js";

export type { Freshness } from "./presence.js";

/** Where this checkout stands, to tell which remote work will meet it. */
export interface LocalSide {
  checkout: string;
  branch: string | null;
  upstream: string | null;
  /** Branches every branch merges into (`remote.targetBranches`). */
  targetBranches: readonly string[];
}

export interface RemoteHolder {
  path: string;
  why: "claim" | "dirty" | "lease";
  machine: string;
  branch: string | null;
  session: string | null;
  task: string | null;
  /** When the information was true (the document's publication, or the lease's expiry for leases). */
  asOf: number;
}

/** Whether work on branch `b` (with upstream `u`) will meet ours. */
export function branchesMeet(local: LocalSide, b: string | null, u: string | null): boolean {
  if (!local.branch || !b) return false;
  if (b === local.branch) return true;
  if (u && u === local.upstream) return true;
  return local.targetBranches.includes(b) || local.targetBranches.includes(local.branch);
}

/** Other checkouts' live claims and dirty paths among `paths`, on branches that meet ours. */
export function presenceHolders(
  paths: readonly string[],
  docs: readonly PresenceDoc[],
  local: LocalSide,
  now: number,
  fresh: Freshness,
): RemoteHolder[] {
  const out: RemoteHolder[] = [];
  for (const { doc, session: s, asOf, branch } of liveRemoteSessions(docs, local.checkout, now, fresh)) {
    if (!branchesMeet(local, branch, doc.upstream)) continue;
    for (const path of paths) {
      const why = s.claims.includes(path) ? "claim" : s.dirty.includes(path) ? "dirty" : null;
      if (why)
        out.push({ path, why, machine: doc.checkout.name, branch, session: s.name, task: s.task, asOf });
    }
  }
  return out;
}

/** Other checkouts' unexpired leases overlapping `paths`, whatever their branch. */
export function leaseHolders(
  paths: readonly string[],
  leases: readonly Lease[],
  local: LocalSide,
  now: number,
): RemoteHolder[] {
  const out: RemoteHolder[] = [];
  for (const l of leases) {
    if (l.checkout === local.checkout || isExpired(l, now)) continue;
    for (const path of paths) {
      if (overlaps(l.path, path))
        out.push({
          path,
          why: "lease",
          machine: l.checkoutName,
          branch: null,
          session: l.session,
          task: l.task,
          asOf: l.expires,
        });
    }
  }
  return out;
}
