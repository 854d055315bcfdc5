import { TandemError } from "../errors.js";

/**
 * Why the store could not be read or written. Every kind closes the gates
 * (pre-tool-use with targets, pre-commit): a decision made without the ledger
 * could hand a peer's file to the wrong session.
 */
export type StoreProblem =
  | "corrupt"
  | "missing"
  | "replaced"
  | "readonly"
  | "permission"
  | "locked"
  | "unavailable";

/** A store that cannot be trusted or used; the message names the file, the problem and the remedy. */
export class StoreError extends TandemError {
  constructor(
    readonly problem: StoreProblem,
    readonly file: string,
    readonly detail: string,
    /**
     * Damage inside the file that a later open would not see by itself (a page
     * only some queries read): it is marked, so every later gate refuses too.
     */
    readonly lasting = false,
  ) {
    super(`Tandem state ${file} ${describeProblem(problem)} (${detail}); ${storeFix(problem, file)}`, 1);
    this.name = "StoreError";
  }
}

export function describeProblem(problem: StoreProblem): string {
  switch (problem) {
    case "corrupt":
      return "is corrupt";
    case "missing":
      return "has disappeared";
    case "replaced":
      return "was replaced by a different store";
    case "readonly":
      return "is read-only";
    case "permission":
      return "cannot be opened";
    case "locked":
      return "is locked by another process";
    case "unavailable":
      return "could not be read or written";
  }
}

/** What a person does about each problem; every message and `tandem doctor` finding uses it. */
export function storeFix(problem: StoreProblem, file: string): string {
  switch (problem) {
    case "corrupt":
    case "missing":
    case "replaced":
      return "nothing was changed. Run `tandem doctor` for details, then `tandem doctor --reset` to keep the old file aside and start a new store.";
    case "readonly":
    case "permission":
      return `nothing was changed. Make ${file} and its directory writable by this user (check chmod, chattr, read-only mounts), then run \`tandem doctor\`.`;
    case "locked":
      return `nothing was changed. Find the process holding it (e.g. \`fuser ${file}\`) and let it finish or stop it; raise agents.storeLockSeconds if it is legitimately slow. \`tandem doctor\` checks it.`;
    case "unavailable":
      return "nothing was changed. Run `tandem doctor` to see what is wrong.";
  }
}

/** SQLite's result code (e.g. `SQLITE_READONLY_DBMOVED`) to a problem; null when it is no store failure. */
export function problemOfSqliteCode(code: string): StoreProblem | null {
  if (!code.startsWith("SQLITE_")) return null;
  if (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB") return "corrupt";
  // The file was unlinked or renamed while open: what is there now is not the store we read.
  if (code === "SQLITE_READONLY_DBMOVED") return "missing";
  if (code.startsWith("SQLITE_READONLY")) return "readonly";
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return "locked";
  if (code.startsWith("SQLITE_CANTOPEN") || code === "SQLITE_PERM" || code === "SQLITE_AUTH")
    return "permission";
  return "unavailable";
}

/** A file-system error code met while opening the store. */
export function problemOfErrno(code: string): StoreProblem | null {
  if (code === "EROFS") return "readonly";
  if (code === "EACCES" || code === "EPERM") return "permission";
  if (["ENOSPC", "EIO", "EDQUOT", "ENOTDIR", "EISDIR", "ELOOP"].includes(code)) return "unavailable";
  return null;
}

/**
 * A file-system error on the store's own files (`state.db`, its `-wal`, `-shm`) is a store failure
 * whatever its code: a file of the store vanishing while it is used is not an internal error.
 */
function problemOfStoreFile(err: Error, file: string, code: string): StoreProblem | null {
  const path = (err as { path?: unknown }).path;
  if (typeof path !== "string" || !path.startsWith(file)) return null;
  return code === "ENOENT" ? "missing" : "unavailable";
}

/**
 * The store failure an error stands for, or null for any other error. SQLite's
 * own errors carry `SQLITE_*` codes (better-sqlite3's SqliteError); anything
 * raised while reading or writing the store is a store failure, whatever the code.
 */
export function storeErrorOf(err: unknown, file: string): StoreError | null {
  if (err instanceof StoreError) return err;
  if (!(err instanceof Error)) return null;
  const code = (err as { code?: unknown }).code;
  if (typeof code !== "string") return null;
  const problem = problemOfSqliteCode(code) ?? problemOfErrno(code) ?? problemOfStoreFile(err, file, code);
  return problem ? new StoreError(problem, file, `${code}: ${err.message}`, problem === "corrupt") : null;
}

/** Runs `fn`, turning every store failure it raises into a StoreError naming the file. */
export function guardStore<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw storeErrorOf(err, file) ?? err;
  }
}
