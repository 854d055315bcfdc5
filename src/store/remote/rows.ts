import { type PresenceDoc, parsePresence, presenceText } from "../../core/remote/presence.js";
import { type Db, stmt } from "../db.js";
import { write } from "../ledger/append.js";
import type { RemoteLeasesRecord, RemotePresenceRow, RemoteSyncRecord } from "../schema/remote.js";

export type { RemotePresenceRow };

/** The tables a sync round fills (src/store/schema/remote.ts). */

export type RemoteLeasesRow = Omit<RemoteLeasesRecord, "id">;

export type RemoteSyncRow = Omit<RemoteSyncRecord, "id">;

export interface RoundRecord {
  /** Null when the round could not read the remote: the tables keep what the last round read. */
  read: { presence: PresenceDoc[]; leases: { text: string; commit: string } | null } | null;
  sync: RemoteSyncRow;
}

function replaceSync(db: Db, s: RemoteSyncRow): void {
  stmt(
    db,
    `INSERT INTO remote_sync (id, remote, last_attempt, last_success, last_error) VALUES (1, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET remote = excluded.remote, last_attempt = excluded.last_attempt,
       last_success = COALESCE(excluded.last_success, remote_sync.last_success),
       last_error = excluded.last_error`,
  ).run(s.remote, s.last_attempt, s.last_success, s.last_error);
}

/** Replaces everything a round read, and its outcome, in one transaction: readers never see half. */
export function recordRound(db: Db, r: RoundRecord): void {
  write(db, () => {
    if (r.read) {
      const at = r.sync.last_attempt;
      stmt(db, "DELETE FROM remote_presence").run();
      const insert = stmt(
        db,
        "INSERT OR REPLACE INTO remote_presence (checkout, name, published, fetched_at, doc) VALUES (?, ?, ?, ?, ?)",
      );
      for (const d of r.read.presence)
        insert.run(d.checkout.id, d.checkout.name, d.published, at, presenceText(d));
      stmt(db, "DELETE FROM remote_leases").run();
      const l = r.read.leases;
      if (l)
        stmt(db, "INSERT INTO remote_leases (id, doc, commit_id, fetched_at) VALUES (1, ?, ?, ?)").run(
          l.text,
          l.commit,
          at,
        );
    }
    replaceSync(db, r.sync);
  });
}

/**
 * Puts the leases document a reserve or release just left on the remote in place of the one the
 * last round fetched, so this checkout's own views show it without waiting for a sync.
 */
export function recordLeases(db: Db, doc: { text: string; commit: string } | null, at: number): void {
  write(db, () => {
    stmt(db, "DELETE FROM remote_leases").run();
    if (doc)
      stmt(db, "INSERT INTO remote_leases (id, doc, commit_id, fetched_at) VALUES (1, ?, ?, ?)").run(
        doc.text,
        doc.commit,
        at,
      );
  });
}

/** Puts this checkout's just-published document in place of the one the round fetched. */
export function recordOwnPresence(db: Db, d: PresenceDoc, at: number): void {
  write(db, () =>
    stmt(
      db,
      "INSERT OR REPLACE INTO remote_presence (checkout, name, published, fetched_at, doc) VALUES (?, ?, ?, ?, ?)",
    ).run(d.checkout.id, d.checkout.name, d.published, at, presenceText(d)),
  );
}

export function remotePresenceRows(db: Db): RemotePresenceRow[] {
  return stmt(
    db,
    "SELECT checkout, name, published, fetched_at, doc FROM remote_presence ORDER BY name, checkout",
  ).all() as RemotePresenceRow[];
}

/** Every stored presence document that parses (this checkout's own included). */
export function remotePresenceDocs(db: Db): PresenceDoc[] {
  return remotePresenceRows(db).flatMap((r) => parsePresence(r.doc) ?? []);
}

export function remoteLeasesRow(db: Db): RemoteLeasesRow | null {
  return (
    (stmt(db, "SELECT doc, commit_id, fetched_at FROM remote_leases WHERE id = 1").get() as
      | RemoteLeasesRow
      | undefined) ?? null
  );
}

export function remoteSyncState(db: Db): RemoteSyncRow | null {
  return (
    (stmt(db, "SELECT remote, last_attempt, last_success, last_error FROM remote_sync WHERE id = 1").get() as
      | RemoteSyncRow
      | undefined) ?? null
  );
}
