import * as z from "zod/mini";

/**
 * Exclusive reservations shared through the remote (docs/decisions/0014, 0062): what a lease is,
 * when it expires, which paths overlap, and the single document of older Tandems (still read to
 * migrate it). What a reservation changes is core/remote/lease-plan.ts; the pushes that make it
 * exclusive are src/remote/leases.ts.
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
