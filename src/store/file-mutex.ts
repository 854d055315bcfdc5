import Database from "better-sqlite3";
import { nativeBindingOption } from "./db.js";

/**
 * Runs `fn` while this process holds the write lock of the SQLite file `file` (BEGIN IMMEDIATE):
 * one process at a time across the machine, and the operating system drops the lock when its
 * holder dies, so a crash never leaves it taken. Waits up to `waitMs` for it, then throws
 * SQLITE_BUSY. The file holds no tables: only its lock is used.
 */
export function underFileMutex<T>(file: string, waitMs: number, fn: () => T): T {
  const db = new Database(file, nativeBindingOption());
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.round(waitMs))}`);
    db.exec("BEGIN IMMEDIATE");
    try {
      return fn();
    } finally {
      db.exec("ROLLBACK");
    }
  } finally {
    db.close();
  }
}
