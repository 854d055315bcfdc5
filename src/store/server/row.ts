import { type Db, stmt } from "../db.js";
import { write } from "../ledger/append.js";
import type { ServerRecord } from "../schema/resident.js";

/** The process that serves this store (docs/server.md §1); at most one row. */
export type ServerRow = Omit<ServerRecord, "id">;

export function serverRow(db: Db): ServerRow | null {
  return (
    (stmt(db, "SELECT pid, pid_start, build, socket, started FROM server WHERE id = 1").get() as
      | ServerRow
      | undefined) ?? null
  );
}

/**
 * Registers `me` as the server unless a live one is registered: decided and written in one
 * transaction, so of two servers racing to start exactly one wins. Returns the live holder when
 * `me` lost.
 */
export function registerServer(db: Db, me: ServerRow, alive: (row: ServerRow) => boolean): ServerRow | null {
  return write(db, () => {
    const current = serverRow(db);
    if (current && current.pid !== me.pid && alive(current)) return current;
    stmt(
      db,
      `INSERT INTO server (id, pid, pid_start, build, socket, started) VALUES (1, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET pid = excluded.pid, pid_start = excluded.pid_start,
         build = excluded.build, socket = excluded.socket, started = excluded.started`,
    ).run(me.pid, me.pid_start, me.build, me.socket, me.started);
    return null;
  });
}

/** Removes the registration if it is still `pid`'s (a successor may have replaced it). */
export function unregisterServer(db: Db, pid: number): void {
  write(db, () => stmt(db, "DELETE FROM server WHERE id = 1 AND pid = ?").run(pid));
}
