import { table } from "./columns.js";

/**
 * Who holds which path now (`claims`), who ever held it (`claim_history`), and what a session's
 * commands touched without a claim (`touched`): projections of the claim events.
 */
export const CLAIMS_DDL = [
  `CREATE TABLE claims (
     worktree TEXT NOT NULL,
     path TEXT NOT NULL,
     session_id TEXT NOT NULL,
     disposition TEXT NOT NULL,
     root TEXT NOT NULL,
     acquired_seq INTEGER NOT NULL,
     PRIMARY KEY (worktree, path)
   )`,
  "CREATE INDEX claims_by_session ON claims (session_id)",
  `CREATE TABLE claim_history (
     session_id TEXT NOT NULL,
     worktree TEXT NOT NULL,
     path TEXT NOT NULL,
     first_seq INTEGER NOT NULL,
     last_seq INTEGER NOT NULL,
     released_seq INTEGER,
     release_reason TEXT,
     PRIMARY KEY (session_id, worktree, path)
   )`,
  `CREATE TABLE touched (
     session_id TEXT NOT NULL,
     worktree TEXT NOT NULL,
     path TEXT NOT NULL,
     first_seq INTEGER NOT NULL,
     unattributed INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (session_id, worktree, path)
   )`,
];

export interface ClaimRow {
  worktree: string;
  path: string;
  session_id: string;
  disposition: string;
  root: string;
  acquired_seq: number;
}

export const CLAIMS = table<ClaimRow>("claims", {
  worktree: "TEXT",
  path: "TEXT",
  session_id: "TEXT",
  disposition: "TEXT",
  root: "TEXT",
  acquired_seq: "INTEGER",
});

export interface ClaimHistoryRow {
  session_id: string;
  worktree: string;
  path: string;
  first_seq: number;
  last_seq: number;
  released_seq: number | null;
  release_reason: string | null;
}

export const CLAIM_HISTORY = table<ClaimHistoryRow>("claim_history", {
  session_id: "TEXT",
  worktree: "TEXT",
  path: "TEXT",
  first_seq: "INTEGER",
  last_seq: "INTEGER",
  released_seq: "INTEGER NULL",
  release_reason: "TEXT NULL",
});

export interface TouchedRow {
  session_id: string;
  worktree: string;
  path: string;
  first_seq: number;
  /** 1 when a command of the session changed the path without a claim. */
  unattributed: number;
}

export const TOUCHED = table<TouchedRow>("touched", {
  session_id: "TEXT",
  worktree: "TEXT",
  path: "TEXT",
  first_seq: "INTEGER",
  unattributed: "INTEGER",
});

/**
 * Scratch state that is not a projection: the dirty set a shell command saw before it ran, kept
 * until its post-tool-use hook measures the delta, and for an hour after, so overlapping commands
 * of peers can be recognised.
 */
export const SHELL_SNAPSHOTS_DDL = [
  `CREATE TABLE shell_snapshots (
     session_id TEXT NOT NULL,
     tool_use_id TEXT NOT NULL,
     started_at INTEGER NOT NULL,
     ended_at INTEGER,
     worktree TEXT NOT NULL,
     dirty TEXT NOT NULL,
     PRIMARY KEY (session_id, tool_use_id)
   )`,
];

/** The stash entries a shell command that runs `git stash` saw before it ran (JSON, or null). */
export const STASH_SNAPSHOT_DDL = ["ALTER TABLE shell_snapshots ADD COLUMN stashes TEXT"];

/**
 * What a shell snapshot covers: `tree` (the dirty set of the whole repository) or `named` (the
 * stamps of the files a fully read command names; core/safety/snapshot-scope.ts).
 */
export const SNAPSHOT_SCOPE_DDL = [
  "ALTER TABLE shell_snapshots ADD COLUMN scope TEXT NOT NULL DEFAULT 'tree'",
];

export interface ShellSnapshotRow {
  session_id: string;
  tool_use_id: string;
  started_at: number;
  ended_at: number | null;
  worktree: string;
  dirty: string;
  stashes: string | null;
  scope: "tree" | "named";
}

export const SHELL_SNAPSHOTS = table<ShellSnapshotRow>("shell_snapshots", {
  session_id: "TEXT",
  tool_use_id: "TEXT",
  started_at: "INTEGER",
  ended_at: "INTEGER NULL",
  worktree: "TEXT",
  dirty: "TEXT",
  stashes: "TEXT NULL",
  scope: "TEXT",
});
