import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import type { Holder } from "../core/remote/leases.js";

/**
 * This checkout's identity (`<state>/checkout.json`, docs/decisions/0014), created on first use.
 * Deliberately tiny: src/remote/checkout.ts (built in parallel for sync) owns the same file, and
 * the two are to be merged into one.
 */
export function checkoutHolder(stateDir: string, top: string): Holder {
  const file = join(stateDir, "checkout.json");
  const found = readHolder(file);
  if (found) return found;
  const made = { id: randomBytes(8).toString("hex"), name: `${hostname()}:${top}` };
  mkdirSync(stateDir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(made)}\n`);
  try {
    linkSync(tmp, file); // fails when another process created it first: theirs wins, read below
  } catch {
    // kept: the file that is there
  } finally {
    rmSync(tmp, { force: true });
  }
  return readHolder(file) ?? { checkout: made.id, name: made.name };
}

function readHolder(file: string): Holder | null {
  try {
    const j = JSON.parse(readFileSync(file, "utf8")) as { id?: unknown; name?: unknown };
    if (typeof j.id === "string" && typeof j.name === "string") return { checkout: j.id, name: j.name };
  } catch {
    // missing or damaged
  }
  return null;
}
