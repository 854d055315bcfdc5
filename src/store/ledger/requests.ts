import type { Rendered } from "../../clients/types.js";
import { TandemError } from "../../errors.js";
import { type Db, stmt, type WriteTx } from "../db.js";
import { raw } from "../handle.js";

/**
 * Exactly-once for thin-client requests (docs/server.md §4). A request id is owned by whoever
 * writes for it first, the server or the Node path the thin client fell back to; every write
 * transaction of a request claims the id inside that transaction, so the other one can never
 * apply the same request as well.
 */
export type RequestOwner = "server" | "node";

const bound = new WeakMap<Db, { id: string; owner: RequestOwner }>();

/** Every `write()` on this connection claims `id` for `owner` until unbound. */
export function bindRequest(db: Db, id: string, owner: RequestOwner): void {
  bound.set(db, { id, owner });
}

export function unbindRequest(db: Db): void {
  bound.delete(db);
}

/** Called by `write()` inside its transaction: refuses to write for a request another took. */
export function claimBoundRequest(db: WriteTx): void {
  const req = bound.get(db);
  if (!req) return;
  stmt(db, "INSERT OR IGNORE INTO requests (id, owner, ts) VALUES (?, ?, ?)").run(
    req.id,
    req.owner,
    Date.now(),
  );
  const row = stmt(db, "SELECT owner FROM requests WHERE id = ?").get(req.id) as { owner: string };
  if (row.owner !== req.owner) {
    throw new TandemError(`request ${req.id} was already taken by the ${row.owner}; not applying it twice`);
  }
}

export type RequestState =
  | { state: "untaken" }
  | { state: "answered"; answer: Rendered }
  | { state: "taken"; owner: string };

export function requestState(db: Db, id: string): RequestState {
  const row = stmt(db, "SELECT owner, answer FROM requests WHERE id = ?").get(id) as
    | { owner: string; answer: string | null }
    | undefined;
  if (!row) return { state: "untaken" };
  if (row.answer === null) return { state: "taken", owner: row.owner };
  return { state: "answered", answer: JSON.parse(row.answer) as Rendered };
}

/**
 * Records the answer of a request that wrote (claimed its id), so a client that lost the reply
 * gets the same answer again. A request that wrote nothing leaves no row: running it again is
 * harmless.
 */
export function recordAnswer(db: Db, id: string, owner: RequestOwner, answer: Rendered): void {
  const taken = stmt(db, "SELECT 1 FROM requests WHERE id = ? AND owner = ?").get(id, owner);
  if (!taken) return;
  // Survives the process (what it is for) without waiting for the disk: WAL with NORMAL sync.
  raw(db).pragma("synchronous = NORMAL");
  try {
    stmt(db, "UPDATE requests SET answer = ? WHERE id = ? AND owner = ?").run(
      JSON.stringify(answer),
      id,
      owner,
    );
  } finally {
    raw(db).pragma("synchronous = FULL");
  }
}

/** Rows older than `before` (ms): a thin client waits at most seconds for its answer. */
export function pruneRequests(db: Db, before: number): number {
  return stmt(db, "DELETE FROM requests WHERE ts < ?").run(before).changes;
}
