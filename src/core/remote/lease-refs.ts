import * as z from "zod/mini";
import { type Lease, leaseSchema } from "./leases.js";

/**
 * One ref per leased path (decision 0062): `refs/tandem/lease/<path>`, each path component
 * escaped into a legal ref component. A directory lease is the ref of the directory itself, so a
 * lease on `src` and one on `src/a.ts` cannot both exist: git refuses the second (a ref cannot be
 * both a file and a directory), and the remote decides overlaps in the same step as it decides
 * the race.
 */
export const LEASE_PREFIX = "refs/tandem/lease/";
/** The single leases document of Tandem before decision 0062, migrated on first contact. */
export const OLD_LEASES_REF = "refs/tandem/leases";
export const LEASE_FILE = "lease.json";
export const LEASE_REF_FORMAT = 1;

const SAFE = /[A-Za-z0-9_-]/;

/** Escapes one path component: bytes outside a small safe set become %XX; `.` only where git allows it. */
export function encodeComponent(name: string): string {
  const bytes = new TextEncoder().encode(name);
  let out = "";
  for (let i = 0; i < bytes.length; i++) {
    const c = String.fromCharCode(bytes[i] ?? 0);
    const dotOk = c === "." && i > 0 && i < bytes.length - 1 && bytes[i + 1] !== 0x2e;
    out += SAFE.test(c) || dotOk ? c : `%${(bytes[i] ?? 0).toString(16).toUpperCase().padStart(2, "0")}`;
  }
  // git refuses a component ending in ".lock"
  return out.endsWith(".lock") ? `${out.slice(0, -5)}%2Elock` : out;
}

export function decodeComponent(part: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < part.length; i++) {
    if (part[i] === "%") {
      bytes.push(Number.parseInt(part.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(part.charCodeAt(i));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** A repository-relative path as leases name it: no empty, `.` or trailing components. */
export function normalLeasePath(path: string): string {
  return path
    .split("/")
    .filter((p) => p !== "" && p !== ".")
    .join("/");
}

export function leaseRef(path: string): string {
  return `${LEASE_PREFIX}${normalLeasePath(path).split("/").map(encodeComponent).join("/")}`;
}

/** The leased path a ref under `prefix` names, or null for a ref that is not one. */
export function pathOfRef(ref: string, prefix: string = LEASE_PREFIX): string | null {
  if (!ref.startsWith(prefix)) return null;
  const rest = ref.slice(prefix.length);
  return rest === "" ? null : rest.split("/").map(decodeComponent).join("/");
}

const leaseFile = z.object({ format: z.literal(LEASE_REF_FORMAT), lease: leaseSchema });

export function leaseFileText(lease: Lease): string {
  return `${JSON.stringify({ format: LEASE_REF_FORMAT, lease }, null, 1)}\n`;
}

export function parseLeaseFile(text: string): Lease | null {
  try {
    const parsed = leaseFile.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.lease : null;
  } catch {
    return null;
  }
}
