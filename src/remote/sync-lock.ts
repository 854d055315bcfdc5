import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { underFileMutex } from "../store/file-mutex.js";
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

/** Only the holder of this file's SQLite lock may change sync.lock (see takeSyncLock). */
export const syncMutexFile = (stateDir: string): string => join(stateDir, "sync.lock.db");

/** The mutex guards a few file operations; waiting longer means something is wrong. */
const MUTEX_WAIT_MS = 5_000;

/**
 * Takes the lock (our pid in sync.lock) unless a live process holds it; returns the release
 * function, or the live holder's pid (0: the lock could not be looked at in time). Deciding that
 * the holder is dead and putting our pid in its place is one step under a mutex that the
 * operating system frees when its holder dies: of processes that all find a dead holder, exactly
 * one takes the lock (decision 0027).
 */
export function takeSyncLock(stateDir: string, now: number): (() => void) | { heldBy: number } {
  mkdirSync(stateDir, { recursive: true });
  let holder: number | null;
  try {
    holder = underFileMutex(syncMutexFile(stateDir), MUTEX_WAIT_MS, () => claim(stateDir, now));
  } catch (err) {
    if ((err as { code?: string }).code === "SQLITE_BUSY") return { heldBy: 0 };
    throw err;
  }
  if (holder !== null) return { heldBy: holder };
  return () => release(stateDir);
}

/** Under the mutex: the live holder, or null once our pid replaced an absent or dead one's. */
function claim(stateDir: string, now: number): number | null {
  const holder = syncLockHolder(stateDir, now);
  if (holder !== null) return holder;
  const file = syncLockFile(stateDir);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${process.pid}\n`, { mode: 0o644 });
  renameSync(tmp, file);
  return null;
}

/** Removes the lock if it still holds our pid (a round past the stale age may have lost it). */
function release(stateDir: string): void {
  const file = syncLockFile(stateDir);
  try {
    underFileMutex(syncMutexFile(stateDir), MUTEX_WAIT_MS, () => {
      if (readFileSync(file, "utf8").trim() === String(process.pid)) rmSync(file, { force: true });
    });
  } catch {
    // Already gone, or the mutex stayed busy: our pid stops counting once this process exits.
  }
}
