/**
 * A few megabytes the store holds back for a full disk (decision 0065). When the disk fills,
 * SQLite cannot even read the store (its shared-memory index needs room), so no gate could judge
 * the `rm` that would free it. Letting the reserve go gives the store room to judge a command
 * that only frees space; it is put back once the disk has room again.
 */
import { rmSync, statfsSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const RESERVE_BYTES = 4 * 1024 * 1024;
/** Below this much free space the disk counts as full. */
const FULL_BELOW = 256 * 1024;
/** The reserve is put back only when it leaves this much free besides. */
const ROOM_FOR_RESERVE = 4 * RESERVE_BYTES;

export const reserveFile = (stateDir: string): string => join(stateDir, "disk-reserve");

function freeBytes(dir: string): number | null {
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return null;
  }
}

/** Whether the disk holding the store has no room left. */
export function diskFull(stateDir: string): boolean {
  const free = freeBytes(stateDir);
  return free !== null && free < FULL_BELOW;
}

/** Lets the reserve go; false when there was none. */
export function releaseReserve(stateDir: string): boolean {
  try {
    rmSync(reserveFile(stateDir));
    return true;
  } catch {
    return false;
  }
}

/** Puts the reserve (real blocks, not a sparse file) back when the disk has room for it. */
export function ensureReserve(stateDir: string): void {
  const file = reserveFile(stateDir);
  const free = freeBytes(stateDir);
  if (free === null || free < ROOM_FOR_RESERVE) return;
  try {
    writeFileSync(file, Buffer.alloc(RESERVE_BYTES), { flag: "wx", mode: 0o600 });
  } catch (err) {
    // Already there: nothing to do. Anything else: the reserve is a help, never a reason to fail.
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") rmSync(file, { force: true });
  }
}
