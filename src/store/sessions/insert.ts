/** The one statement that writes a whole `sessions` row: a new session, or one a compaction restores. */
import type { Db } from "../db.js";
import { stmt } from "../db.js";
import type { SessionRow } from "./rows.js";

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

/** What a session is, as `session.started` (and a compaction's copy of it) spells it. */
export interface SessionIdentity {
  client: string;
  nativeId: string;
  name: string;
  kind: SessionRow["kind"];
  parentId: string | null;
  agentPid: number | null;
  agentPidStart: string | null;
  cwd: string | null;
}

/** The identity columns of a sessions row, from the event's camelCase fields. */
export function identityColumns(s: SessionIdentity) {
  return {
    client: s.client,
    native_id: s.nativeId,
    name: s.name,
    kind: s.kind,
    parent_id: s.parentId,
    agent_pid: s.agentPid,
    agent_pid_start: s.agentPidStart,
    cwd: s.cwd,
  };
}
