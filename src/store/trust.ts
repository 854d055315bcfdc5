import { StoreError } from "./failure.js";
import { type Db, raw } from "./handle.js";
import { type IdentityRead, newStoreId, readCorruptMark, readIdentity, recordIdentity } from "./identity.js";

/**
 * What must hold before a store is opened at all: no earlier process found it
 * corrupt, its identity record is readable, and a store this repository once
 * had has not disappeared (SQLite would silently create an empty one).
 */
export function expectedIdentity(stateDir: string, file: string, exists: boolean): IdentityRead {
  const mark = readCorruptMark(stateDir);
  if (mark) throw new StoreError("corrupt", file, `found corrupt at ${mark.at}: ${mark.detail}`);
  const expected = readIdentity(stateDir);
  if (expected.state === "bad")
    throw new StoreError("corrupt", file, `its identity record ${expected.file} is unreadable`);
  if (expected.state === "ok" && !exists) {
    throw new StoreError(
      "missing",
      file,
      `this repository's store ${expected.id} (created ${expected.created}) is gone`,
    );
  }
  return expected;
}

export function storeId(db: Db): number {
  return raw(db).pragma("application_id", { simple: true }) as number;
}

/** Before anything is written: the file must be the store the repository recorded. */
export function checkIdentity(db: Db, file: string, expected: IdentityRead): void {
  if (expected.state !== "ok") return;
  const found = storeId(db);
  if (found === expected.id) return;
  const what = found === 0 ? "a store without a Tandem identity" : `store ${found}`;
  throw new StoreError("replaced", file, `found ${what}, expected store ${expected.id}`);
}

/**
 * After migration, for a writable open: a store without an id gets one (a new
 * store, or one made before identities existed), and a repository without an
 * identity record adopts the store's. Only the very first store of a
 * repository, or one from before this check, takes this path.
 */
export function settleIdentity(db: Db, stateDir: string, file: string, expected: IdentityRead): void {
  if (expected.state === "ok") return;
  const id = ensureStoreId(db);
  const recorded = recordIdentity(stateDir, id);
  if (recorded !== id)
    throw new StoreError("replaced", file, `found store ${id}, expected store ${recorded}`);
}

/** The store's id, giving it a fresh one if it has none. */
export function ensureStoreId(db: Db): number {
  const id = storeId(db);
  if (id !== 0) return id;
  return raw(db)
    .transaction(() => {
      // Re-read under the write lock: a concurrent first opener may have set it.
      const current = storeId(db);
      if (current !== 0) return current;
      const fresh = newStoreId();
      raw(db).pragma(`application_id = ${fresh}`);
      return fresh;
    })
    .immediate();
}

/**
 * Cheap structural check of what a gate decides from: the claims table and its
 * indexes (a few pages). Corruption elsewhere is caught by the full check at
 * session start, by `tandem doctor`, or by whichever query reads it first.
 */
export function verifyGateTables(db: Db, file: string): void {
  const problems = (raw(db).pragma("integrity_check(claims)") as { integrity_check: string }[])
    .map((r) => r.integrity_check)
    .filter((m) => m !== "ok");
  if (problems.length === 0) return;
  const detail = `claims table: ${problems.slice(0, 3).join("; ")}`;
  throw new StoreError("corrupt", file, detail, true);
}

/** The whole file's structure (O(size), ~100 ms for 40 MB): run off the gated path. */
export function auditStore(db: Db): string | null {
  const rows = (raw(db).pragma("quick_check(5)") as { quick_check: string }[]).map((r) => r.quick_check);
  return rows.length === 1 && rows[0] === "ok" ? null : rows.join("; ");
}
