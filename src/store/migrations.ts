import { REMOTE_DDL } from "./remote-ddl.js";

/**
 * Versioned schema migrations; `PRAGMA user_version` holds the applied count.
 * Projection tables are listed separately so `doctor --rebuild` can drop and
 * recreate exactly them.
 */
export const PROJECTION_DDL = [
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

export const PROJECTION_TABLES = [
  "sessions",
  "claims",
  "claim_history",
  "touched",
  "subagents",
  "subagent_captures",
  "subagent_applies",
  "preserved",
  "clobbers",
  "expired_subagents",
] as const;

/**
 * Sub-agent views (docs/product.md §7): created by their own migration, so they are not
 * part of PROJECTION_DDL (spread into migration 1); `doctor --rebuild` recreates
 * them from this list. JSON columns hold event data verbatim.
 */
export const SUBAGENT_PROJECTION_DDL = [
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

/**
 * The safety net (docs/safety-net.md): every preserved version of a live peer's
 * uncommitted file, and every change another session's command made to one.
 */
export const WORK_PROJECTION_DDL = [
  `CREATE TABLE preserved (
     worktree TEXT NOT NULL,
     path TEXT NOT NULL,
     owner TEXT NOT NULL,
     version INTEGER NOT NULL,
     blob TEXT NOT NULL,
     bytes INTEGER NOT NULL,
     stamp TEXT NOT NULL,
     reason TEXT NOT NULL,
     seq INTEGER NOT NULL,
     ts INTEGER NOT NULL,
     PRIMARY KEY (worktree, path, owner, version)
   )`,
  `CREATE TABLE clobbers (
     seq INTEGER PRIMARY KEY,
     ts INTEGER NOT NULL,
     worktree TEXT NOT NULL,
     path TEXT NOT NULL,
     owner TEXT NOT NULL,
     actor TEXT,
     version INTEGER,
     change TEXT NOT NULL,
     via TEXT NOT NULL,
     noticed INTEGER NOT NULL DEFAULT 0,
     recovered INTEGER NOT NULL DEFAULT 0
   )`,
  "CREATE INDEX clobbers_by_owner ON clobbers (owner, noticed)",
];

/**
 * Scratch state that is not a projection: the dirty set a shell command saw
 * before it ran, kept until its post-tool-use hook measures the delta, and for
 * an hour after, so overlapping commands of peers can be recognised.
 */
const SCRATCH_DDL = [
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

/**
 * A year of history (docs/decisions/0012): indexes that keep every hook and agent command
 * proportional to the live state, and the record of sub-agents whose artifacts `tandem gc`
 * deleted. A projection like the others: `doctor --rebuild` recreates it from this list.
 */
export const HISTORY_PROJECTION_DDL = [
  // Open sessions, found without reading ended ones; also the forged-hook check's lookup by pid.
  "CREATE INDEX sessions_open ON sessions (agent_pid) WHERE ended_seq IS NULL",
  "CREATE INDEX sessions_by_last_seen ON sessions (last_seen)",
  // `--session X` matches the native id too; with this index that lookup is a seek, not a scan.
  "CREATE INDEX sessions_by_native ON sessions (native_id)",
  // Who else owns a given path (the end-turn check's peers), by key instead of by scan.
  "CREATE INDEX claim_history_by_path ON claim_history (worktree, path)",
  "CREATE INDEX touched_by_path ON touched (worktree, path)",
  "CREATE INDEX subagents_present ON subagents (created_seq) WHERE removal IS NULL",
  `CREATE TABLE expired_subagents (
     sub_id TEXT PRIMARY KEY,
     seq INTEGER NOT NULL
   )`,
];

/**
 * Left work's candidates (decision 0029): the claim-history rows that can still make a path left
 * work (held, or released only by their session's end). Settled and committed rows drop out of it,
 * so finding left work costs what is open, not a year of history. A projection index: `doctor
 * --rebuild` recreates it from this list.
 */
export const LEFT_PROJECTION_DDL = [
  `CREATE INDEX claim_history_open ON claim_history (worktree, path)
     WHERE released_seq IS NULL OR release_reason = 'session_end'`,
];

/** The stash entries a shell command that runs `git stash` saw before it ran (JSON, or null). */
const STASH_SNAPSHOT_DDL = ["ALTER TABLE shell_snapshots ADD COLUMN stashes TEXT"];

/**
 * What a shell snapshot covers: `tree` (the dirty set of the whole repository) or `named` (the
 * stamps of the files a fully read command names; core/safety/snapshot-scope.ts).
 */
const SNAPSHOT_SCOPE_DDL = ["ALTER TABLE shell_snapshots ADD COLUMN scope TEXT NOT NULL DEFAULT 'tree'"];

/**
 * The process the person sees (a terminal UI), when it is not the one hooks descend from: Codex
 * runs hooks under a shared app-server daemon that outlives the UI (docs/clients.md §2.6). Added to
 * the sessions projection; `doctor --rebuild` re-adds it after PROJECTION_DDL.
 */
export const SESSION_UI_DDL = [
  "ALTER TABLE sessions ADD COLUMN ui_pid INTEGER",
  "ALTER TABLE sessions ADD COLUMN ui_pid_start TEXT",
];

/**
 * The resident server (docs/server.md): which process serves this store, and which thin-client
 * requests have been taken and by whom, so a request the server may have handled before it died
 * is never applied twice by the Node path. Not projections: nothing here is derived from events.
 */
export const RESIDENT_DDL = [
  `CREATE TABLE requests (
     id TEXT PRIMARY KEY,
     owner TEXT NOT NULL,
     ts INTEGER NOT NULL,
     answer TEXT
   )`,
  "CREATE INDEX requests_by_ts ON requests (ts)",
  `CREATE TABLE server (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     pid INTEGER NOT NULL,
     pid_start TEXT,
     build TEXT NOT NULL,
     socket TEXT NOT NULL,
     started INTEGER NOT NULL
   )`,
];

/**
 * What `tandem init` wired (docs/decisions/0024): per coordination root the choice it wired with,
 * and per wiring file its stat stamp and the blob of its content as Tandem last accepted it. Not
 * projections: hooks and the server refresh the stamps without an event.
 */
const WIRING_DDL = [
  `CREATE TABLE wiring_roots (
     root TEXT PRIMARY KEY,
     launcher TEXT NOT NULL,
     clients TEXT NOT NULL,
     git_hooks INTEGER NOT NULL
   )`,
  `CREATE TABLE wiring_files (
     path TEXT PRIMARY KEY,
     root TEXT NOT NULL,
     stamp TEXT NOT NULL,
     blob TEXT
   )`,
];

/**
 * Who wrote each uncommitted hunk (decision 0061): per file, the text the hunks describe, the
 * digest of the base they are from, and the hunks with their authors (JSON). Scratch state like
 * the shell snapshots: re-derived from the file on its next write, never from the log.
 */
const LINE_AUTHORS_DDL = [
  `CREATE TABLE line_authors (
     worktree TEXT NOT NULL,
     path TEXT NOT NULL,
     base TEXT NOT NULL,
     content TEXT NOT NULL,
     hunks TEXT NOT NULL,
     updated_at INTEGER NOT NULL,
     PRIMARY KEY (worktree, path)
   )`,
];

export const MIGRATIONS: readonly string[][] = [
  [
    `CREATE TABLE events (
       seq INTEGER PRIMARY KEY AUTOINCREMENT,
       ts INTEGER NOT NULL,
       session_id TEXT,
       kind TEXT NOT NULL,
       data TEXT NOT NULL
     )`,
    "CREATE INDEX events_by_session ON events (session_id, seq)",
    "CREATE INDEX events_by_kind ON events (kind, seq)",
    ...PROJECTION_DDL,
  ],
  SCRATCH_DDL,
  SUBAGENT_PROJECTION_DDL,
  WORK_PROJECTION_DDL,
  STASH_SNAPSHOT_DDL,
  SESSION_UI_DDL,
  HISTORY_PROJECTION_DDL,
  RESIDENT_DDL,
  REMOTE_DDL,
  SNAPSHOT_SCOPE_DDL,
  WIRING_DDL,
  LEFT_PROJECTION_DDL,
  LINE_AUTHORS_DDL,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
