import { type Db, type OpenOptions, openDb } from "./db.js";

/**
 * How a caller gets a store connection and gives it back. One-shot processes open and close; the
 * resident server lends warm connections from a pool (src/server/pool.ts).
 */
export interface StoreAccess {
  open(stateDir: string, opts: OpenOptions): Db;
  release(db: Db): void;
  /** Told when a loan gave up waiting for another process's write lock (the server's pool). */
  lockFailed?(db: Db, since: number): void;
}

export const DIRECT_ACCESS: StoreAccess = {
  open: openDb,
  release: (db) => db.close(),
};
