import type { Db, WriteTx } from "../db.js";
import type { EventRow } from "../events/list.js";
import { inTx, raw } from "../handle.js";
import { project } from "../ledger/projections.js";
import {
  HISTORY_PROJECTION_DDL,
  KEPT_PROJECTION_DDL,
  LEFT_PROJECTION_DDL,
  PROJECTION_DDL,
  PROJECTION_TABLES,
  SESSION_UI_DDL,
  SUBAGENT_PROJECTION_DDL,
  WORK_PROJECTION_DDL,
} from "../migrations.js";

/** Drops every projection and replays the whole ledger into fresh ones, in one transaction. */
export function rebuildProjections(db: Db): number {
  let replayed = 0;
  raw(db)
    .transaction(() => {
      const tx = inTx<WriteTx>(db);
      for (const table of PROJECTION_TABLES) raw(db).exec(`DROP TABLE IF EXISTS ${table}`);
      const ddl = [
        ...PROJECTION_DDL,
        ...SESSION_UI_DDL,
        ...SUBAGENT_PROJECTION_DDL,
        ...WORK_PROJECTION_DDL,
        ...HISTORY_PROJECTION_DDL,
        ...LEFT_PROJECTION_DDL,
        ...KEPT_PROJECTION_DDL,
      ];
      for (const sql of ddl) raw(db).exec(sql);
      // Read in pages: better-sqlite3 cannot write while an iterator is open on the same connection.
      const page = raw(db).prepare(
        "SELECT seq, ts, session_id, kind, data FROM events WHERE seq > ? ORDER BY seq LIMIT 2000",
      );
      let after = 0;
      for (;;) {
        const rows = page.all(after) as EventRow[];
        if (rows.length === 0) break;
        for (const row of rows) {
          project(tx, {
            seq: row.seq,
            ts: row.ts,
            session: row.session_id,
            kind: row.kind,
            data: JSON.parse(row.data),
          });
          replayed++;
        }
        after = rows[rows.length - 1]!.seq;
      }
    })
    .immediate();
  return replayed;
}

/** A canonical dump of every projection, for comparing a rebuild with the live views. */
export function dumpProjections(db: Db): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const table of PROJECTION_TABLES) {
    const columns = (raw(db).pragma(`table_info(${table})`) as unknown[]).length;
    const order = [1, 2, 3].filter((n) => n <= columns).join(", ");
    out[table] = raw(db).prepare(`SELECT * FROM ${table} ORDER BY ${order}`).all();
  }
  return out;
}
