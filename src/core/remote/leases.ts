import * as z from "zod/mini";

/**
 * Exclusive reservations shared through one remote ref (docs/decisions/0014). The decisions here
 * are pure; the compare-and-swap push that makes them exclusive is in src/remote/leases.ts.
 */
export const LEASES_FORMAT = 1;

/** A lease is free only this long after it expired by the reader's clock (clock skew margin). */
export const SKEW_MARGIN_MS = 60_000;

export const leaseSchema = z.object({
  path: z.string(),
  checkout: z.string(),
  checkoutName: z.string(),
  session: z.nullable(z.string()),
  task: z.nullable(z.string()),
  expires: z.number(),
});

const doc = z.object({ format: z.literal(LEASES_FORMAT), leases: z.array(leaseSchema) });

export type Lease = z.infer<typeof leaseSchema>;
export type LeaseDoc = z.infer<typeof doc>;

export const EMPTY_LEASES: LeaseDoc = { format: LEASES_FORMAT, leases: [] };

export function parseLeases(text: string): LeaseDoc | null {
  try {
    const parsed = doc.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function leasesText(d: LeaseDoc): string {
  const leases = [...d.leases].sort((a, b) => a.path.localeCompare(b.path));
  return `${JSON.stringify({ format: d.format, leases }, null, 1)}\n`;
}

export const isExpired = (l: Lease, now: number): boolean => l.expires + SKEW_MARGIN_MS <= now;

/** Whether two reserved paths overlap: equal, or one is a directory holding the other. */
export function overlaps(a: string, b: string): boolean {
  const x = a.replace(/\/+$/, "");
  const y = b.replace(/\/+$/, "");
  return x === y || x.startsWith(`${y}/`) || y.startsWith(`${x}/`);
}

export interface Holder {
  checkout: string;
  name: string;
}

export interface LeaseRequest {
  paths: string[];
  holder: Holder;
  session: string | null;
  task: string | null;
  ttlMs: number;
}

export interface LeaseOutcome {
  doc: LeaseDoc;
  won: string[];
  lost: { path: string; by: Lease }[];
  /** Whether the document changed (nothing to push otherwise). */
  changed: boolean;
}

/**
 * Reserves `paths` for `req.holder`: expired leases go, a path overlapping another checkout's live
 * lease is lost to it, the holder's own leases on the path are extended.
 */
export function reserve(current: LeaseDoc, req: LeaseRequest, now: number): LeaseOutcome {
  const live = current.leases.filter((l) => !isExpired(l, now));
  const won: string[] = [];
  const lost: { path: string; by: Lease }[] = [];
  let leases = live;
  for (const path of req.paths) {
    const by = leases.find((l) => l.checkout !== req.holder.checkout && overlaps(l.path, path));
    if (by) {
      lost.push({ path, by });
      continue;
    }
    won.push(path);
    leases = leases.filter((l) => !(l.checkout === req.holder.checkout && l.path === path));
    leases.push({
      path,
      checkout: req.holder.checkout,
      checkoutName: req.holder.name,
      session: req.session,
      task: req.task,
      expires: now + req.ttlMs,
    });
  }
  const next = { format: LEASES_FORMAT, leases } as LeaseDoc;
  return { doc: next, won, lost, changed: leasesText(next) !== leasesText(current) };
}

/** Gives up the holder's leases on `paths` (a directory releases everything under it). */
export function release(current: LeaseDoc, holder: Holder, paths: string[], now: number): LeaseOutcome {
  const under = (path: string, p: string) => path === p || path.startsWith(`${p.replace(/\/+$/, "")}/`);
  const mine = (l: Lease) => l.checkout === holder.checkout && paths.some((p) => under(l.path, p));
  const released = current.leases.filter(mine).map((l) => l.path);
  const leases = current.leases.filter((l) => !mine(l) && !isExpired(l, now));
  const next = { format: LEASES_FORMAT, leases } as LeaseDoc;
  return { doc: next, won: released, lost: [], changed: leasesText(next) !== leasesText(current) };
}

/**
 * This checkout's live leases in the document it last published that the remote's document no
 * longer holds: deleted by a forced push or a rewrite, since every change Tandem makes keeps them.
 */
export function missingOwn(
  published: LeaseDoc,
  current: LeaseDoc | null,
  checkout: string,
  now: number,
): Lease[] {
  const there = current?.leases ?? [];
  return published.leases.filter(
    (l) =>
      l.checkout === checkout &&
      !isExpired(l, now) &&
      !there.some((t) => t.checkout === checkout && t.path === l.path && t.expires >= l.expires),
  );
}

/** Puts `leases` back as they were (same expiry), unless another checkout's live lease overlaps one meanwhile. */
export function restore(current: LeaseDoc, leases: readonly Lease[], now: number): LeaseOutcome {
  let kept = current.leases.filter((l) => !isExpired(l, now));
  const won: string[] = [];
  const lost: { path: string; by: Lease }[] = [];
  for (const l of leases) {
    const by = kept.find((k) => k.checkout !== l.checkout && overlaps(k.path, l.path));
    if (by) {
      lost.push({ path: l.path, by });
      continue;
    }
    kept = [...kept.filter((k) => !(k.checkout === l.checkout && k.path === l.path)), l];
    won.push(l.path);
  }
  const next = { format: LEASES_FORMAT, leases: kept } as LeaseDoc;
  return { doc: next, won, lost, changed: leasesText(next) !== leasesText(current) };
}
