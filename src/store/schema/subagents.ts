import { table } from "./columns.js";

/**
 * Sub-agent views (docs/product.md §7), created by their own migration; `doctor --rebuild`
 * recreates them from this list. JSON columns hold event data verbatim.
 */
export const SUBAGENTS_DDL = [
  `CREATE TABLE subagents (
     id TEXT PRIMARY KEY,
     name TEXT,
     client TEXT NOT NULL,
     parent_session TEXT,
     child_session TEXT,
     origin TEXT NOT NULL,
     worktree TEXT NOT NULL,
     branch TEXT NOT NULL,
     base TEXT NOT NULL,
     base_ref TEXT NOT NULL,
     args TEXT NOT NULL,
     log TEXT NOT NULL,
     runner_pid INTEGER,
     runner_start TEXT,
     child_pid INTEGER,
     child_start TEXT,
     created_seq INTEGER NOT NULL,
     created_ts INTEGER NOT NULL,
     exited_seq INTEGER,
     exit_code INTEGER,
     exit_signal TEXT,
     exit_reason TEXT,
     exit_message TEXT,
     latest_capture TEXT,
     captures INTEGER NOT NULL DEFAULT 0,
     removed_seq INTEGER,
     removal TEXT
   )`,
  "CREATE INDEX subagents_by_name ON subagents (name)",
  `CREATE TABLE subagent_captures (
     id TEXT PRIMARY KEY,
     sub_id TEXT NOT NULL,
     number INTEGER NOT NULL,
     recorded_seq INTEGER NOT NULL,
     recorded_ts INTEGER NOT NULL,
     ok INTEGER NOT NULL,
     base TEXT NOT NULL,
     head TEXT,
     commit_count INTEGER NOT NULL,
     mbox_blob TEXT,
     mbox_bytes INTEGER NOT NULL,
     patch_blob TEXT,
     patch_bytes INTEGER NOT NULL,
     had_uncommitted INTEGER NOT NULL,
     dirty_paths TEXT NOT NULL,
     uncaptured TEXT NOT NULL,
     series TEXT NOT NULL
   )`,
  "CREATE INDEX subagent_captures_by_sub ON subagent_captures (sub_id, number)",
  `CREATE TABLE subagent_applies (
     sub_id TEXT NOT NULL,
     target TEXT NOT NULL,
     capture_id TEXT NOT NULL,
     stage TEXT NOT NULL,
     fence TEXT,
     series_base TEXT,
     series_blob TEXT,
     am_head TEXT,
     staged_before TEXT,
     pre_apply TEXT,
     post_head TEXT,
     applied_child_head TEXT,
     commits_applied INTEGER,
     patch_applied INTEGER,
     paths TEXT,
     message TEXT,
     failing_commit TEXT,
     ack_uncaptured INTEGER NOT NULL DEFAULT 0,
     ack_partial INTEGER NOT NULL DEFAULT 0,
     updated_seq INTEGER NOT NULL,
     completed_seq INTEGER,
     PRIMARY KEY (sub_id, target)
   )`,
];

/** A `subagents` row as stored (store/subagents/rows.ts reads it into a `SubRecord`). */
export interface SubagentRow {
  id: string;
  name: string | null;
  client: string;
  parent_session: string | null;
  child_session: string | null;
  origin: string;
  worktree: string;
  branch: string;
  base: string;
  base_ref: string;
  args: string;
  log: string;
  runner_pid: number | null;
  runner_start: string | null;
  child_pid: number | null;
  child_start: string | null;
  created_seq: number;
  created_ts: number;
  exited_seq: number | null;
  exit_code: number | null;
  exit_signal: string | null;
  exit_reason: string | null;
  exit_message: string | null;
  latest_capture: string | null;
  captures: number;
  removed_seq: number | null;
  removal: string | null;
}

export const SUBAGENTS = table<SubagentRow>("subagents", {
  id: "TEXT",
  name: "TEXT NULL",
  client: "TEXT",
  parent_session: "TEXT NULL",
  child_session: "TEXT NULL",
  origin: "TEXT",
  worktree: "TEXT",
  branch: "TEXT",
  base: "TEXT",
  base_ref: "TEXT",
  args: "TEXT",
  log: "TEXT",
  runner_pid: "INTEGER NULL",
  runner_start: "TEXT NULL",
  child_pid: "INTEGER NULL",
  child_start: "TEXT NULL",
  created_seq: "INTEGER",
  created_ts: "INTEGER",
  exited_seq: "INTEGER NULL",
  exit_code: "INTEGER NULL",
  exit_signal: "TEXT NULL",
  exit_reason: "TEXT NULL",
  exit_message: "TEXT NULL",
  latest_capture: "TEXT NULL",
  captures: "INTEGER",
  removed_seq: "INTEGER NULL",
  removal: "TEXT NULL",
});

export interface SubagentCaptureRow {
  id: string;
  sub_id: string;
  number: number;
  recorded_seq: number;
  recorded_ts: number;
  ok: number;
  base: string;
  head: string | null;
  commit_count: number;
  mbox_blob: string | null;
  mbox_bytes: number;
  patch_blob: string | null;
  patch_bytes: number;
  had_uncommitted: number;
  dirty_paths: string;
  uncaptured: string;
  series: string;
}

export const SUBAGENT_CAPTURES = table<SubagentCaptureRow>("subagent_captures", {
  id: "TEXT",
  sub_id: "TEXT",
  number: "INTEGER",
  recorded_seq: "INTEGER",
  recorded_ts: "INTEGER",
  ok: "INTEGER",
  base: "TEXT",
  head: "TEXT NULL",
  commit_count: "INTEGER",
  mbox_blob: "TEXT NULL",
  mbox_bytes: "INTEGER",
  patch_blob: "TEXT NULL",
  patch_bytes: "INTEGER",
  had_uncommitted: "INTEGER",
  dirty_paths: "TEXT",
  uncaptured: "TEXT",
  series: "TEXT",
});

export interface SubagentApplyRow {
  sub_id: string;
  target: string;
  capture_id: string;
  stage: string;
  fence: string | null;
  series_base: string | null;
  series_blob: string | null;
  am_head: string | null;
  staged_before: string | null;
  pre_apply: string | null;
  post_head: string | null;
  applied_child_head: string | null;
  commits_applied: number | null;
  patch_applied: number | null;
  paths: string | null;
  message: string | null;
  failing_commit: string | null;
  ack_uncaptured: number;
  ack_partial: number;
  updated_seq: number;
  completed_seq: number | null;
}

export const SUBAGENT_APPLIES = table<SubagentApplyRow>("subagent_applies", {
  sub_id: "TEXT",
  target: "TEXT",
  capture_id: "TEXT",
  stage: "TEXT",
  fence: "TEXT NULL",
  series_base: "TEXT NULL",
  series_blob: "TEXT NULL",
  am_head: "TEXT NULL",
  staged_before: "TEXT NULL",
  pre_apply: "TEXT NULL",
  post_head: "TEXT NULL",
  applied_child_head: "TEXT NULL",
  commits_applied: "INTEGER NULL",
  patch_applied: "INTEGER NULL",
  paths: "TEXT NULL",
  message: "TEXT NULL",
  failing_commit: "TEXT NULL",
  ack_uncaptured: "INTEGER",
  ack_partial: "INTEGER",
  updated_seq: "INTEGER",
  completed_seq: "INTEGER NULL",
});

/** Sub-agents whose artifacts `tandem gc` deleted (docs/decisions/0012): a projection too. */
export const EXPIRED_SUBAGENTS_DDL = [
  `CREATE TABLE expired_subagents (
     sub_id TEXT PRIMARY KEY,
     seq INTEGER NOT NULL
   )`,
];

export interface ExpiredSubagentRow {
  sub_id: string;
  seq: number;
}

export const EXPIRED_SUBAGENTS = table<ExpiredSubagentRow>("expired_subagents", {
  sub_id: "TEXT",
  seq: "INTEGER",
});
