import type { Db } from "../db.js";
import { raw } from "../handle.js";

/** A finished landing as the ledger has it: its event, when, and who ran it. */
export interface LandingRow {
  kind: "land.pushed" | "land.refused" | "land.conflicted";
  ts: number;
  session: string | null;
  data: Record<string, unknown>;
}

/** The latest finished landings since `since` (epoch ms), newest first (land.started is left out). */
export function recentLandings(db: Db, since: number, limit: number): LandingRow[] {
  const rows = raw(db)
    .prepare(
      `SELECT e.kind AS kind, e.ts AS ts, s.name AS session, e.data AS data
         FROM events e LEFT JOIN sessions s ON s.id = e.session_id
        WHERE e.kind IN ('land.pushed', 'land.refused', 'land.conflicted') AND e.ts >= ?
        ORDER BY e.seq DESC LIMIT ?`,
    )
    .all(since, limit) as { kind: LandingRow["kind"]; ts: number; session: string | null; data: string }[];
  return rows.map((r) => ({ ...r, data: JSON.parse(r.data) as Record<string, unknown> }));
}
