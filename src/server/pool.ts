import type { StoreAccess } from "../store/access.js";
import { type Db, type OpenOptions, openDb } from "../store/db.js";
import { filesStamp } from "../store/files-stamp.js";

/** Enough for the hooks of a few agents in flight at once; more are opened and closed. */
const IDLE_PER_STORE = 4;

/**
 * Warm store connections for the resident server: opened once, checked on every loan against the
 * store's files, so the next request opens a replaced store afresh through every check `openDb` makes
 * (docs/server.md §1).
 */
export class StorePool implements StoreAccess {
  private readonly idle = new Map<string, { db: Db; stamp: string }[]>();
  private readonly lent = new Map<Db, { stateDir: string; stamp: string }>();

  open(stateDir: string, opts: OpenOptions): Db {
    const stamp = filesStamp(stateDir);
    const list = this.idle.get(stateDir) ?? [];
    for (let c = list.pop(); c; c = list.pop()) {
      if (c.stamp === stamp && c.db.open) {
        c.db.pragma(`busy_timeout = ${Math.round((opts.lockSeconds ?? 5) * 1000)}`);
        this.lent.set(c.db, { stateDir, stamp });
        return c.db;
      }
      c.db.close();
    }
    const db = openDb(stateDir, opts);
    this.lent.set(db, { stateDir, stamp: filesStamp(stateDir) });
    return db;
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
