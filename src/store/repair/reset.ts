import { existsSync, mkdirSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { PLAIN, type Printer } from "../../core/printed.js";
import { RESETTABLE, storeNotice } from "../../core/store/notice.js";
import { TandemError } from "../../errors.js";
import { dbFile, openDb } from "../db.js";
import { describeProblem, type StoreProblem } from "../failure.js";
import { setFailureLogsAside } from "../failure-log.js";
import { clearCorruptMark, identityFile, replaceIdentity } from "../identity.js";
import { appendOne } from "../ledger/append.js";
import { auditStore, ensureStoreId } from "../trust.js";
import { diagnoseTrust, openReadOnly } from "./diagnose.js";

function storeExists(file: string): boolean {
  return (statSync(file, { throwIfNoEntry: false })?.size ?? 0) > 0;
}

/** Why the store must be replaced, or null when it can be kept. */
function resetReason(
  stateDir: string,
  file: string,
  printer: Printer,
): { problem: StoreProblem; detail: string; previousId: number | null } | null {
  const exists = storeExists(file);
  const verdict = diagnoseTrust(stateDir, exists);
  if (!verdict.trusted) {
    if (!RESETTABLE.includes(verdict.problem)) {
      const n = storeNotice(verdict.problem, file, verdict.detail, printer);
      throw new TandemError(`cannot reset: ${n.what}, which a new store would not fix; ${n.fix}.`);
    }
    return verdict;
  }
  if (!exists) return null;
  const db = openReadOnly(stateDir);
  try {
    const damage = auditStore(db);
    return damage ? { problem: "corrupt", detail: damage, previousId: null } : null;
  } finally {
    db.close();
  }
}

/** Moves the store's files into `<stateDir>/aside-<stamp>/`; they are kept, never deleted. */
function moveAside(stateDir: string, file: string, stamp: string): string | null {
  const present = ["", "-wal", "-shm"].map((s) => `${file}${s}`).filter((f) => existsSync(f));
  if (present.length === 0) return null;
  const aside = join(stateDir, `aside-${stamp}`);
  mkdirSync(aside, { recursive: true });
  for (const f of present) renameSync(f, join(aside, f.slice(stateDir.length + 1)));
  return aside;
}

/** A new, empty store whose identity replaces the recorded one; the reset is its first event. */
function startNewStore(
  stateDir: string,
  why: { reason: string; previousId: number | null; movedTo: string | null },
  now: Date,
): number {
  const db = openDb(stateDir, { untrusted: true });
  try {
    const id = ensureStoreId(db);
    appendOne(db, { kind: "store.reset", session: null, ts: now.getTime(), data: { ...why, newId: id } });
    replaceIdentity(stateDir, id, now);
    return id;
  } finally {
    db.close();
  }
}

/**
 * `tandem doctor --reset`: acknowledges a lost, replaced or corrupt store (its
 * files are kept aside and a new store is started) and the failures recorded
 * so far. Returns what it did, one sentence each.
 */
export function resetStore(stateDir: string, now = new Date(), printer: Printer = PLAIN): string[] {
  const file = dbFile(stateDir);
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  const actions: string[] = [];
  const reason = resetReason(stateDir, file, printer);
  if (reason) {
    const why = `the store ${describeProblem(reason.problem)} (${reason.detail})`;
    const movedTo = moveAside(stateDir, file, stamp);
    actions.push(
      movedTo ? `${why}: moved its files to ${movedTo} (kept, not deleted)` : `${why}: acknowledged its loss`,
    );
    clearCorruptMark(stateDir);
    const id = startNewStore(stateDir, { reason: why, previousId: reason.previousId, movedTo }, now);
    actions.push(
      `started a new store ${id} at ${file} and recorded its identity in ${identityFile(stateDir)}; sessions and claims of the old store are not carried over (agents register again on their next tool call)`,
    );
  }
  const logs = setFailureLogsAside(stateDir, stamp);
  if (logs.length > 0) actions.push(`acknowledged the recorded hook failures (kept as ${logs.join(", ")})`);
  if (actions.length === 0)
    actions.push("the store is trusted and intact and no failures are recorded: nothing to reset");
  return actions;
}
