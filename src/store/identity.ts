import { existsSync, linkSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";

/**
 * A store's identity lives in two places: a random number in its own header
 * (`PRAGMA application_id`) and a small file beside the state directory, in
 * the git directory. Deleting or swapping the store leaves that file behind,
 * so a store recreated empty, or another one copied in, is recognised instead
 * of trusted. Reading it costs one small file read per open, no git process.
 */
export interface StoreIdentity {
  id: number;
  created: string;
}

/** node:crypto on first use: only a new store or a marker write needs it, not every hook. */
const randomInt = (min: number, max: number) => process.getBuiltinModule("node:crypto").randomInt(min, max);

/** Beside `<git common dir>/tandem/`, not inside it: `rm -rf .git/tandem` must not erase it too. */
export function identityFile(stateDir: string): string {
  return `${stateDir}.store-id`;
}

/** Set when any Tandem process met corruption, so later gates refuse even if they never read that page. */
export function corruptMarker(stateDir: string): string {
  return `${stateDir}.corrupt`;
}

/** A fresh id for a new store: non-zero, fits SQLite's signed 32-bit application_id. */
export function newStoreId(): number {
  return randomInt(1, 2 ** 31 - 1);
}

function parseIdentity(text: string): StoreIdentity | null {
  try {
    const v = JSON.parse(text) as Partial<StoreIdentity>;
    const ok = Number.isInteger(v.id) && (v.id ?? 0) > 0 && typeof v.created === "string";
    return ok ? { id: v.id!, created: v.created! } : null;
  } catch {
    return null;
  }
}

export type IdentityRead =
  | { state: "none" }
  | { state: "bad"; file: string }
  | ({ state: "ok" } & StoreIdentity);

/** The identity recorded for this repository's store, if any. */
export function readIdentity(stateDir: string): IdentityRead {
  const file = identityFile(stateDir);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { state: "none" };
    return { state: "bad", file };
  }
  const identity = parseIdentity(text);
  return identity ? { state: "ok", ...identity } : { state: "bad", file };
}

function tempBeside(file: string): string {
  return `${file}.${process.pid}.${randomInt(0, 1e9)}.tmp`;
}

/**
 * Records `id` unless an identity is already recorded; returns the one that
 * stands. Written aside and hard-linked into place, so a reader never sees a
 * half-written file and two first writers cannot both win.
 */
export function recordIdentity(stateDir: string, id: number, now = new Date()): number {
  const file = identityFile(stateDir);
  const tmp = tempBeside(file);
  writeFileSync(tmp, `${JSON.stringify({ id, created: now.toISOString() })}\n`);
  try {
    linkSync(tmp, file);
    return id;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    const existing = readIdentity(stateDir);
    return existing.state === "ok" ? existing.id : 0;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** `doctor --reset`: the new store's identity replaces the old one. */
export function replaceIdentity(stateDir: string, id: number, now = new Date()): void {
  const file = identityFile(stateDir);
  const tmp = tempBeside(file);
  writeFileSync(tmp, `${JSON.stringify({ id, created: now.toISOString() })}\n`);
  renameSync(tmp, file);
}

export interface CorruptMark {
  at: string;
  detail: string;
}

export function readCorruptMark(stateDir: string): CorruptMark | null {
  const file = corruptMarker(stateDir);
  // Almost always absent: asked first, so the common path throws nothing.
  if (!existsSync(file)) return null;
  try {
    const v = JSON.parse(readFileSync(file, "utf8")) as Partial<CorruptMark>;
    return { at: String(v.at ?? "an unknown time"), detail: String(v.detail ?? "corruption") };
  } catch {
    return { at: "an unknown time", detail: `unreadable marker ${file}` };
  }
}

/** Best effort: the first detection wins, later ones keep it. */
export function markCorrupt(stateDir: string, detail: string, now = new Date()): void {
  const file = corruptMarker(stateDir);
  if (existsSync(file)) return;
  const tmp = tempBeside(file);
  try {
    writeFileSync(tmp, `${JSON.stringify({ at: now.toISOString(), detail })}\n`);
    renameSync(tmp, file);
  } catch {
    // Nowhere to mark (read-only git directory): the failure log still says what happened.
    try {
      rmSync(tmp, { force: true });
    } catch {}
  }
}

export function clearCorruptMark(stateDir: string): void {
  rmSync(corruptMarker(stateDir), { force: true });
}
