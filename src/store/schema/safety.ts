import { table } from "./columns.js";

/**
 * The safety net (docs/safety-net.md): every preserved version of a live peer's uncommitted file,
 * and every change another session's command made to one.
 */
export const SAFETY_DDL = [
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
 * A live owner's kept versions by owner (issue 37, a year under the retention policy): every hook
 * reads the kept files of the sessions still open, which a year's ended owners must not slow. With
 * this index that read seeks each open session's rows instead of every row of the worktree.
 */
export const PRESERVED_BY_OWNER_DDL = [
  "CREATE INDEX IF NOT EXISTS preserved_by_owner ON preserved (owner, worktree, path, version)",
];

/** A `preserved` row: one version of one owner's file, its bytes in the blob store. */
export interface PreservedRow {
  worktree: string;
  path: string;
  owner: string;
  version: number;
  blob: string;
  bytes: number;
  stamp: string;
  reason: string;
  seq: number;
  ts: number;
}

export const PRESERVED = table<PreservedRow>("preserved", {
  worktree: "TEXT",
  path: "TEXT",
  owner: "TEXT",
  version: "INTEGER",
  blob: "TEXT",
  bytes: "INTEGER",
  stamp: "TEXT",
  reason: "TEXT",
  seq: "INTEGER",
  ts: "INTEGER",
});

/** A `clobbers` row: one change a command of `actor` made to `owner`'s uncommitted file. */
export interface ClobberRecord {
  seq: number;
  ts: number;
  worktree: string;
  path: string;
  owner: string;
  actor: string | null;
  version: number | null;
  change: "changed" | "removed";
  via: string;
  noticed: number;
  recovered: number;
}

export const CLOBBERS = table<ClobberRecord>("clobbers", {
  seq: "INTEGER",
  ts: "INTEGER",
  worktree: "TEXT",
  path: "TEXT",
  owner: "TEXT",
  actor: "TEXT NULL",
  version: "INTEGER NULL",
  change: "TEXT",
  via: "TEXT",
  noticed: "INTEGER",
  recovered: "INTEGER",
});
