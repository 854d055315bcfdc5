import { table } from "./columns.js";

/** Who is working here: one row per session, projected from its events. */
export const SESSIONS_DDL = [
  `CREATE TABLE sessions (
     id TEXT PRIMARY KEY,
     client TEXT NOT NULL,
     native_id TEXT NOT NULL,
     name TEXT NOT NULL UNIQUE,
     kind TEXT NOT NULL,
     parent_id TEXT,
     agent_pid INTEGER,
     agent_pid_start TEXT,
     cwd TEXT,
     task TEXT,
     activity TEXT NOT NULL,
     started_seq INTEGER NOT NULL,
     last_seen INTEGER NOT NULL,
     last_seq INTEGER NOT NULL,
     ended_seq INTEGER,
     UNIQUE (client, native_id)
   )`,
];

/**
 * The process the person sees (a terminal UI), when it is not the one hooks descend from: Codex
 * runs hooks under a shared app-server daemon that outlives the UI (docs/clients.md §2.6). Added to
 * the sessions projection; `doctor --rebuild` re-adds it after the table.
 */
export const SESSION_UI_DDL = [
  "ALTER TABLE sessions ADD COLUMN ui_pid INTEGER",
  "ALTER TABLE sessions ADD COLUMN ui_pid_start TEXT",
];

export interface SessionRow {
  id: string;
  client: string;
  native_id: string;
  name: string;
  kind: "session" | "subagent";
  parent_id: string | null;
  agent_pid: number | null;
  agent_pid_start: string | null;
  ui_pid: number | null;
  ui_pid_start: string | null;
  cwd: string | null;
  task: string | null;
  activity: "idle" | "working" | "needs_input";
  started_seq: number;
  last_seen: number;
  last_seq: number;
  ended_seq: number | null;
}

export const SESSIONS = table<SessionRow>("sessions", {
  id: "TEXT",
  client: "TEXT",
  native_id: "TEXT",
  name: "TEXT",
  kind: "TEXT",
  parent_id: "TEXT NULL",
  agent_pid: "INTEGER NULL",
  agent_pid_start: "TEXT NULL",
  ui_pid: "INTEGER NULL",
  ui_pid_start: "TEXT NULL",
  cwd: "TEXT NULL",
  task: "TEXT NULL",
  activity: "TEXT",
  started_seq: "INTEGER",
  last_seen: "INTEGER",
  last_seq: "INTEGER",
  ended_seq: "INTEGER NULL",
});
