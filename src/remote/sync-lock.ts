import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { stamp, stampTime } from "../store/stamp-file.js";

/** When the last sync round started (its mtime) and which process runs one (its pid). */
export const syncMark = (stateDir: string): string => join(stateDir, "sync.mark");
export const syncLockFile = (stateDir: string): string => join(stateDir, "sync.lock");

/** A lock older than this belongs to a round that cannot still be running (timeouts are seconds). */
const STALE_LOCK_MS = 10 * 60_000;

export function lastSyncStart(stateDir: string): number | null {
  return stampTime(syncMark(stateDir));
}

export function markSyncStart(stateDir: string, now: number): void {
  stamp(syncMark(stateDir), now);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pid of a live process holding the lock, else null (a dead or ancient holder does not count). */
export function syncLockHolder(stateDir: string, now: number): number | null {
  const file = syncLockFile(stateDir);
  try {
    const st = statSync(file);
    const pid = Number(readFileSync(file, "utf8").trim());
    if (now - st.mtimeMs > STALE_LOCK_MS || !Number.isInteger(pid) || pid <= 0) return null;
    return alive(pid) ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Takes the lock (created exclusively, holding our pid), replacing a dead holder's once; returns
 * the release function, or the live holder's pid. Never two rounds at once.
 */
export function takeSyncLock(stateDir: string, now: number): (() => void) | { heldBy: number } {
  const file = syncLockFile(stateDir);
  mkdirSync(stateDir, { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o644);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(file, "utf8").trim() === String(process.pid)) rmSync(file, { force: true });
        } catch {
          // Already gone.
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const holder = syncLockHolder(stateDir, now);
      if (holder !== null) return { heldBy: holder };
      rmSync(file, { force: true }); // a dead holder's: take it over
    }
  }
  return { heldBy: 0 };
}
