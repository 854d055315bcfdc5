import { type Printer, spanned } from "../printed.js";
import { shellQuote } from "../shell/quote.js";

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
  | "full"
  | "unavailable";

/**
 * One store problem, as every surface reports it (status, doctor, a hook's refusal, the git
 * hook's, the resident server): what is wrong, and what a person does about it.
 */
export interface StoreNotice {
  problem: StoreProblem;
  /** `<file> is read-only (EACCES on <dir>)`: the file, the problem, the detail. */
  what: string;
  /** A sentence starting in lower case, for `fix: …` and `Fix: …` alike. */
  fix: string;
}

/** What the gates do while the problem lasts; said after `what` by every surface. */
export const STORE_CONSEQUENCE = "gated edits and commits are refused until it is fixed";

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
    case "full":
      return "cannot be read or written: the disk it is on is full";
    case "unavailable":
      return "could not be read or written";
  }
}

/** The problems `tandem doctor --reset` solves; the others would follow a new store there. */
export const RESETTABLE: readonly StoreProblem[] = ["corrupt", "missing", "replaced"];

/**
 * What the reader does about each problem, its commands spelled by `p`. `blocked` is the one path found unwritable (the file or
 * its directory), when a check named it: the fix then names that path alone.
 */
export function storeFix(problem: StoreProblem, file: string, p: Printer, blocked?: string): string {
  const doctor = spanned(p, "doctor");
  const reset = spanned(p, "doctor", "--reset");
  switch (problem) {
    case "corrupt":
      return `run ${reset}: it moves the damaged store aside (kept) and starts a new one`;
    case "missing":
      return `put the deleted state.db back if you can; otherwise run ${reset} to acknowledge the loss and start a new store (the claims it held are gone)`;
    case "replaced":
      return `put this repository's own state.db back if you can; otherwise run ${reset}: it moves the unknown store aside (kept) and starts a new one`;
    case "readonly":
    case "permission":
      return writableFix(blocked ?? null, file, doctor);
    case "locked":
      return `find the process holding it (\`fuser ${shellQuote(file)}\`) and let it finish or stop it; raise agents.storeLockSeconds if it is legitimately slow; ${doctor} checks it`;
    case "full":
      return `free space on that disk: ${spanned(p, "gc")} lets go saved versions past the retention.* bounds, and deleting files of your own you no longer need (build outputs, caches) frees more; both pass Tandem while the disk is full; then run ${doctor}`;
    case "unavailable":
      return `run ${doctor} to see what is wrong`;
  }
}

function writableFix(blocked: string | null, file: string, doctor: string): string {
  const then = `then run ${doctor}`;
  if (blocked === null)
    return `make ${file} and its directory writable by this user (check chmod, chattr, read-only mounts), ${then}`;
  const q = shellQuote(blocked);
  return `make ${blocked} writable by this user: \`chmod u+w ${q}\` (if it is immutable, \`chattr -i ${q}\` as root; on a read-only mount, remount it read-write), ${then}`;
}

export function storeNotice(
  problem: StoreProblem,
  file: string,
  detail: string,
  p: Printer,
  blocked?: string,
): StoreNotice {
  return {
    problem,
    what: `${file} ${describeProblem(problem)} (${detail})`,
    fix: storeFix(problem, file, p, blocked),
  };
}

/** The notice in one paragraph, as a refusal or an error says it. */
export function noticeText(n: StoreNotice): string {
  return `Tandem's store ${n.what}; ${STORE_CONSEQUENCE}. Fix: ${n.fix}.`;
}

/** SQLite's result code (e.g. `SQLITE_READONLY_DBMOVED`) to a problem; null when it is no store failure. */
export function problemOfSqliteCode(code: string): StoreProblem | null {
  if (!code.startsWith("SQLITE_")) return null;
  if (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB") return "corrupt";
  // The file was unlinked or renamed while open: what is there now is not the store we read.
  if (code === "SQLITE_READONLY_DBMOVED") return "missing";
  if (code.startsWith("SQLITE_READONLY")) return "readonly";
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return "locked";
  if (code === "SQLITE_FULL") return "full";
  if (code.startsWith("SQLITE_CANTOPEN") || code === "SQLITE_PERM" || code === "SQLITE_AUTH")
    return "permission";
  return "unavailable";
}

/** A file-system error code met while opening or writing the store. */
export function problemOfErrno(code: string): StoreProblem | null {
  if (code === "EROFS") return "readonly";
  if (code === "EACCES" || code === "EPERM") return "permission";
  if (code === "ENOSPC" || code === "EDQUOT") return "full";
  if (["EIO", "ENOTDIR", "EISDIR", "ELOOP"].includes(code)) return "unavailable";
  return null;
}
