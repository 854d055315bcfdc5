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

export const PROJECTION_TABLES = ["sessions", "claims", "claim_history", "touched"] as const;

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
];

export const SCHEMA_VERSION = MIGRATIONS.length;
