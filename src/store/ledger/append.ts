import { TandemError } from "../../errors.js";
import type { Db, ReadTx, WriteTx } from "../db.js";
import { stmt } from "../db.js";
import { checkEventData, type EventData, type EventKind } from "../events/schemas.js";
import { inTx, raw } from "../handle.js";
import { assertWritable } from "../write-access.js";
import { commitByKind, noteAppended } from "./durability.js";
import { project, type StoredEvent } from "./projections.js";
import { claimBoundRequest } from "./requests.js";

export interface NewEvent<K extends EventKind = EventKind> {
  kind: K;
  session: string | null;
  data: EventData<K>;
  /** Milliseconds since the epoch; defaults to now. */
  ts?: number;
}

/**
 * Appends one event and updates the projections it affects. Must run inside a
 * transaction (see `write`) so the event and its views commit together.
 */
export function append<K extends EventKind>(db: WriteTx, ev: NewEvent<K>): StoredEvent {
  if (!db.inTransaction) throw new Error("append() must run inside write()");
  const problem = checkEventData(ev.kind, ev.data);
  if (problem) throw new TandemError(`refusing to record an invalid event: ${problem}`);
  const ts = ev.ts ?? Date.now();
  const json = JSON.stringify(ev.data);
  const info = stmt(db, "INSERT INTO events (ts, session_id, kind, data) VALUES (?, ?, ?, ?)").run(
    ts,
    ev.session,
    ev.kind,
    json,
  );
  const stored: StoredEvent = {
    seq: Number(info.lastInsertRowid),
    ts,
    session: ev.session,
    kind: ev.kind,
    data: ev.data,
  };
  const tx = inTx<WriteTx>(db);
  project(tx, stored);
  noteAppended(tx, ev.kind, ev.data);
  return stored;
}

/**
 * When a commit waits for the disk: `always` (FULL, the store's setting), or `gating` — only when
 * the transaction appended an event that gates work (store/ledger/durability.ts). Hooks write `gating`.
 */
export type Durability = "always" | "gating";

/**
 * Runs reads in one deferred transaction: they all see one snapshot, and no write lock is taken.
 * `fn` is handed the connection as a `ReadTx` (decision 0067).
 */
export function readSnapshot<T>(db: Db, fn: (tx: ReadTx) => T): T {
  return raw(db).transaction(() => fn(inTx<ReadTx>(db)))();
}

/**
 * Runs read-decide-write logic in one `BEGIN IMMEDIATE` transaction: the write
 * lock is taken before the first read, so concurrent hooks serialize instead of
 * deciding on stale data. A thin-client request bound to the connection is claimed in the same
 * transaction (store/ledger/requests.ts). A store made read-only since the connection opened is
 * refused before the transaction starts: open descriptors would otherwise go on writing it.
 */
export function write<T>(db: Db, fn: (tx: WriteTx) => T, durability: Durability = "always"): T {
  if (!db.inTransaction && !raw(db).memory) assertWritable(raw(db).name);
  const tx = raw(db).transaction(() => {
    const tx = inTx<WriteTx>(db);
    claimBoundRequest(tx);
    return fn(tx);
  });
  // Nested in an open transaction, the outer one commits (and decides the sync).
  if (durability === "always" || db.inTransaction) return tx.immediate();
  return commitByKind(db, () => tx.immediate());
}

export function appendOne<K extends EventKind>(db: Db, ev: NewEvent<K>): StoredEvent {
  return write(db, (tx) => append(tx, ev));
}
