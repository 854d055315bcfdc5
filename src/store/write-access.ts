import { accessSync, constants } from "node:fs";
import { dirname } from "node:path";
import { StoreError } from "./failure.js";

/**
 * The first of the store's file and its directory that this user may not write (mode, the
 * immutable bit, a read-only mount), with the error the check met; null when both may be written
 * or do not exist yet. Asked of the file system, so no lock is taken. A connection opened before
 * the store became read-only keeps writing through its open descriptors: the resident server asks
 * this before each write, so it refuses as a new process would (docs/server.md §7).
 */
export function writeBlocker(file: string): { path: string; code: string } | null {
  for (const path of [file, dirname(file)]) {
    try {
      accessSync(path, constants.W_OK);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? "EACCES";
      if (code !== "ENOENT") return { path, code };
    }
  }
  return null;
}

/** The store failure a blocked write is: `<file> is read-only (EACCES on <path>)`. */
export function readOnlyError(file: string): StoreError | null {
  const blocked = writeBlocker(file);
  return blocked
    ? new StoreError("readonly", file, `${blocked.code} on ${blocked.path}`, false, blocked.path)
    : null;
}

/** Throws the read-only store's failure before a write would start. */
export function assertWritable(file: string): void {
  const err = readOnlyError(file);
  if (err) throw err;
}
