import { PLAIN, type Printer } from "../core/printed.js";
import {
  noticeText,
  problemOfErrno,
  problemOfSqliteCode,
  type StoreNotice,
  type StoreProblem,
  storeNotice,
} from "../core/store/notice.js";
import { TandemError } from "../errors.js";

export { describeProblem, problemOfSqliteCode, type StoreProblem, storeFix } from "../core/store/notice.js";

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
    /** The one path found unwritable (the file or its directory), when a check named it. */
    readonly blocked?: string,
  ) {
    // The message's reader is unknown where it is thrown: surfaces that know it use noticeFor.
    super(noticeText(storeNotice(problem, file, detail, PLAIN, blocked)), 1);
    this.name = "StoreError";
  }

  /** What every surface shows of it: the same words and fix everywhere (core/store/notice.ts). */
  noticeFor(p: Printer): StoreNotice {
    return storeNotice(this.problem, this.file, this.detail, p, this.blocked);
  }

  /** The one-paragraph message, its commands spelled for `p`'s reader. */
  messageFor(p: Printer): string {
    return noticeText(this.noticeFor(p));
  }
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
