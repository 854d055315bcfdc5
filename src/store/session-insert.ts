/** The one statement that writes a whole `sessions` row: a new session, or one a compaction restores. */
import type { Db } from "./db.js";
import { stmt } from "./db.js";
import type { SessionRow } from "./queries.js";

const COLUMNS = [
  "id",
  "client",
  "native_id",
  "name",
  "kind",
  "parent_id",
  "agent_pid",
  "agent_pid_start",
  "ui_pid",
  "ui_pid_start",
  "cwd",
  "task",
  "activity",
  "started_seq",
  "last_seen",
  "last_seq",
  "ended_seq",
] as const satisfies readonly (keyof SessionRow)[];

const SQL = `INTO sessions (${COLUMNS.join(", ")}) VALUES (${COLUMNS.map(() => "?").join(", ")})`;

/**
 * Writes `row`. A new session must be new (a second start of the same id fails); a restore
 * (`replace`) overwrites whatever the live events left.
 */
export function insertSession(db: Db, row: SessionRow, mode: "new" | "replace"): void {
  stmt(db, `${mode === "replace" ? "INSERT OR REPLACE" : "INSERT"} ${SQL}`).run(
    ...COLUMNS.map((c) => row[c]),
  );
}
