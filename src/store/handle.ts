import type Database from "better-sqlite3";

declare const STORE: unique symbol;
declare const READ: unique symbol;
declare const WRITE: unique symbol;

/**
 * A store connection as src/ outside the store sees it (decision 0067): a value to pass to the
 * store's functions, to close, and to ask whether it is open or inside a transaction. It has no
 * `prepare`, `exec`, `pragma` or `transaction`, so a statement outside src/store/ does not
 * compile; only the store unwraps it (`raw`), and only the store may import this file.
 */
export interface Db {
  readonly [STORE]: "store";
  readonly open: boolean;
  readonly inTransaction: boolean;
  close(): void;
}

/** A connection inside one snapshot (`readSnapshot`): every read in it agrees. */
export interface ReadTx extends Db {
  readonly [READ]: "read";
}

/** A connection inside `BEGIN IMMEDIATE` (`write`): it may read, decide and append. */
export interface WriteTx extends ReadTx {
  readonly [WRITE]: "write";
}

/** better-sqlite3's connection: the store's own view of a `Db`. */
export type Conn = Database.Database;

/** The connection behind a handle: for the store's own statements only. */
export function raw(db: Db): Conn {
  return db as unknown as Conn;
}

/** A fresh connection as the rest of src/ receives it. */
export function sealed(conn: Conn): Db {
  return conn as unknown as Db;
}

/** The handle a transaction's body receives; the caller has begun the transaction. */
export function inTx<T extends ReadTx>(db: Db): T {
  return db as T;
}
