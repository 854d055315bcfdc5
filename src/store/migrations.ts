import { CLAIMS_DDL, SHELL_SNAPSHOTS_DDL, SNAPSHOT_SCOPE_DDL, STASH_SNAPSHOT_DDL } from "./schema/claims.js";
import { EVENTS_DDL } from "./schema/events.js";
import { LINE_AUTHORS_DDL, LINE_STAMPS_DDL } from "./schema/line-authors.js";
import { REMOTE_DDL } from "./schema/remote.js";
import { RESIDENT_DDL } from "./schema/resident.js";
import { PRESERVED_BY_OWNER_DDL, SAFETY_DDL } from "./schema/safety.js";
import { SESSION_UI_DDL, SESSIONS_DDL } from "./schema/sessions.js";
import { EXPIRED_SUBAGENTS_DDL, SUBAGENTS_DDL } from "./schema/subagents.js";
import { WIRING_DDL } from "./schema/wiring.js";

export { RESIDENT_DDL, SESSION_UI_DDL };

/**
 * Versioned schema migrations; `PRAGMA user_version` holds the applied count. Each table's DDL
 * sits beside its row type in store/schema/; this file says in which migration each statement
 * runs. Projection tables are listed separately so `doctor --rebuild` can drop and recreate
 * exactly them.
 */
export const PROJECTION_DDL = [...SESSIONS_DDL, ...CLAIMS_DDL];

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

/** Sub-agent views (store/schema/subagents.ts): a migration of their own. */
export const SUBAGENT_PROJECTION_DDL = SUBAGENTS_DDL;

/** The safety net (store/schema/safety.ts). */
export const WORK_PROJECTION_DDL = SAFETY_DDL;

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
  ...EXPIRED_SUBAGENTS_DDL,
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

/** Kept versions by owner (store/schema/safety.ts): a projection index `doctor --rebuild` recreates. */
export const KEPT_PROJECTION_DDL = PRESERVED_BY_OWNER_DDL;

export const MIGRATIONS: readonly string[][] = [
  [...EVENTS_DDL, ...PROJECTION_DDL],
  SHELL_SNAPSHOTS_DDL,
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
  LINE_STAMPS_DDL,
  KEPT_PROJECTION_DDL,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
