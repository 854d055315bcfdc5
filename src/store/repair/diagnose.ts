import { type Db, dbFile, openDb } from "../db.js";
import { type StoreError, type StoreProblem, storeErrorOf } from "../failure.js";
import { type IdentityRead, readIdentity } from "../identity.js";
import { checkIdentity, expectedIdentity } from "../trust.js";

export type TrustVerdict =
  | { trusted: true; exists: boolean }
  | { trusted: false; problem: StoreProblem; detail: string; previousId: number | null };

/**
 * Whether the store is the one this repository recorded, judged without
 * creating or changing anything (for `tandem doctor` and `--reset`). A store
 * that cannot even be opened to read is reported with the reason.
 */
export function diagnoseTrust(stateDir: string, exists: boolean): TrustVerdict {
  const file = dbFile(stateDir);
  const recorded = readIdentity(stateDir);
  const previousId = recorded.state === "ok" ? recorded.id : null;
  const untrusted = (e: StoreError): TrustVerdict => ({
    trusted: false,
    problem: e.problem,
    detail: e.detail,
    previousId,
  });
  let expected: IdentityRead;
  try {
    expected = expectedIdentity(stateDir, file, exists);
  } catch (err) {
    return untrusted(err as StoreError);
  }
  if (!exists) return { trusted: true, exists: false };
  try {
    const db = openReadOnly(stateDir);
    try {
      checkIdentity(db, file, expected);
    } finally {
      db.close();
    }
  } catch (err) {
    const e = storeErrorOf(err, file);
    if (!e) throw err;
    return untrusted(e);
  }
  return { trusted: true, exists: true };
}

/** For diagnosis: reads the file as it is, trusted or not, and waits at most a second for a lock. */
export function openReadOnly(stateDir: string): Db {
  return openDb(stateDir, { readonly: true, untrusted: true, lockSeconds: 1 });
}
