import { inSpell, lockWaitLeft } from "../core/server/lock-wait.js";
import type { StoreAccess } from "../store/access.js";
import { type Db, DEFAULT_LOCK_SECONDS, type OpenOptions, openDb, setLockWait } from "../store/db.js";
import { filesStamp } from "../store/files-stamp.js";

/** Enough for the hooks of a few agents in flight at once; more are opened and closed. */
const IDLE_PER_STORE = 4;

interface Loan {
  stateDir: string;
  stamp: string;
  /** The lock wait the request was configured with (agents.storeLockSeconds). */
  bound: number;
}

/**
 * Warm store connections for the resident server: opened once, checked on every loan against the
 * store's files, so the next request opens a replaced store afresh through every check `openDb` makes
 * (docs/server.md §1). Each loan waits for another process's write lock only what is left of the
 * bound once a request found it held (core/server/lock-wait.ts).
 */
export class StorePool implements StoreAccess {
  private readonly idle = new Map<string, { db: Db; stamp: string }[]>();
  private readonly lent = new Map<Db, Loan>();
  /** Per store: since when a request found the write lock held past its wait. */
  private readonly heldSince = new Map<string, number>();

  open(stateDir: string, opts: OpenOptions, now = Date.now()): Db {
    const bound = opts.lockSeconds ?? DEFAULT_LOCK_SECONDS;
    const wait = lockWaitLeft(bound, this.heldSince.get(stateDir) ?? null, now);
    const stamp = filesStamp(stateDir);
    const list = this.idle.get(stateDir) ?? [];
    for (let c = list.pop(); c; c = list.pop()) {
      if (c.stamp === stamp && c.db.open) {
        setLockWait(c.db, wait);
        this.lent.set(c.db, { stateDir, stamp, bound });
        return c.db;
      }
      c.db.close();
    }
    const db = openDb(stateDir, { ...opts, lockSeconds: wait });
    this.lent.set(db, { stateDir, stamp: filesStamp(stateDir), bound });
    return db;
  }

  /**
   * The loan of `db` gave up waiting for the lock, which it began waiting for at `since`: the other
   * loans of that store, lent to requests paused meanwhile, wait only what is left.
   */
  lockFailed(db: Db, since: number, now = Date.now()): void {
    const loan = this.lent.get(db);
    if (!loan) return;
    if (!inSpell(loan.bound, this.heldSince.get(loan.stateDir) ?? null, now))
      this.heldSince.set(loan.stateDir, since);
    const held = this.heldSince.get(loan.stateDir) ?? null;
    for (const [other, o] of this.lent) {
      if (other !== db && o.stateDir === loan.stateDir && other.open)
        setLockWait(other, lockWaitLeft(o.bound, held, now));
    }
  }

  release(db: Db): void {
    const loan = this.lent.get(db);
    this.lent.delete(db);
    if (!loan || !db.open) return;
    const list = this.idle.get(loan.stateDir) ?? [];
    if (db.inTransaction || list.length >= IDLE_PER_STORE) {
      db.close();
      return;
    }
    list.push({ db, stamp: loan.stamp });
    this.idle.set(loan.stateDir, list);
  }

  close(): void {
    for (const list of this.idle.values()) for (const c of list) c.db.close();
    this.idle.clear();
  }
}
