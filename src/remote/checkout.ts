import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";

/** node:crypto on first use: loading it costs every hook and command a few ms. */
const crypto = () => process.getBuiltinModule("node:crypto");

/** Who this checkout is to the others (docs/decisions/0014): its presence ref is named by `id`. */
export interface CheckoutIdentity {
  id: string;
  name: string;
}

export function checkoutFile(stateDir: string): string {
  return join(stateDir, "checkout.json");
}

function readIdentity(file: string): CheckoutIdentity | null {
  try {
    const v = JSON.parse(readFileSync(file, "utf8")) as Partial<CheckoutIdentity>;
    return typeof v.id === "string" && /^[0-9a-f]{8,64}$/.test(v.id) && typeof v.name === "string"
      ? { id: v.id, name: v.name }
      : null;
  } catch {
    return null;
  }
}

/** The identity if this checkout has one already: what readers use, so a view creates nothing. */
export function knownCheckout(stateDir: string): CheckoutIdentity | null {
  return readIdentity(checkoutFile(stateDir));
}

/**
 * The checkout's identity, created on first use. The file appears whole or not at all (written
 * aside, then hard-linked into place, which fails if it exists): of two processes creating it at
 * once, both end up with the one that won. A damaged file is replaced.
 */
export function checkoutIdentity(stateDir: string, top: string): CheckoutIdentity {
  const file = checkoutFile(stateDir);
  const known = readIdentity(file);
  if (known) return known;
  const mine: CheckoutIdentity = {
    id: crypto().randomBytes(8).toString("hex"),
    name: `${hostname()}:${top}`,
  };
  mkdirSync(stateDir, { recursive: true });
  const tmp = `${file}.${process.pid}.${mine.id}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(mine)}\n`, { mode: 0o644 });
  try {
    linkSync(tmp, file);
    return mine;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    const winner = readIdentity(file);
    if (winner) return winner;
    // Present but damaged: replace it (rename is atomic; a racing reader sees old or new).
    renameSync(tmp, file);
    return mine;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** The identity as a lease holder (core/remote/leases.ts names it `checkout`). */
export function checkoutHolder(stateDir: string, top: string): { checkout: string; name: string } {
  const { id, name } = checkoutIdentity(stateDir, top);
  return { checkout: id, name };
}
