/** Reads of the safety net's tables: preserved versions of files and the clobbers recorded against them. */
import type { Db } from "../db.js";
import { stmt } from "../db.js";
import type { ClobberRecord, PreservedRow } from "../schema/safety.js";

export type { PreservedRow };

export function newestPreserved(
  db: Db,
  worktree: string,
  path: string,
  owner: string,
): PreservedRow | undefined {
  return stmt(
    db,
    "SELECT * FROM preserved WHERE worktree = ? AND path = ? AND owner = ? ORDER BY version DESC LIMIT 1",
  ).get(worktree, path, owner) as PreservedRow | undefined;
}

export function versionsOf(db: Db, worktree: string, key: string, owner: string): PreservedRow[] {
  return stmt(
    db,
    "SELECT * FROM preserved WHERE worktree = ? AND path = ? AND owner = ? ORDER BY version",
  ).all(worktree, key, owner) as PreservedRow[];
}

/** Every path of `owner` with a preserved version, newest activity first. */
export function preservedPaths(
  db: Db,
  owner: string,
): { worktree: string; path: string; versions: number }[] {
  return stmt(
    db,
    `SELECT worktree, path, count(*) AS versions, max(seq) AS last FROM preserved WHERE owner = ?
     GROUP BY worktree, path ORDER BY last DESC`,
  ).all(owner) as { worktree: string; path: string; versions: number }[];
}

/** The newest version the file already has with exactly these bytes (`stamp`), or null. */
export function versionWithStamp(
  db: Db,
  worktree: string,
  path: string,
  owner: string,
  stamp: string,
): number | null {
  const row = stmt(
    db,
    "SELECT max(version) AS v FROM preserved WHERE worktree = ? AND path = ? AND owner = ? AND stamp = ?",
  ).get(worktree, path, owner, stamp) as { v: number | null };
  return row.v;
}

/** A version and the event that recorded it. */
export interface VersionAt {
  version: number;
  seq: number;
}

/** The version the newest clobber of the file (with a version) points at. */
export function lastClobberedVersion(
  db: Db,
  worktree: string,
  path: string,
  owner: string,
): VersionAt | undefined {
  return stmt(
    db,
    "SELECT version, seq FROM clobbers WHERE worktree = ? AND path = ? AND owner = ? AND version IS NOT NULL ORDER BY seq DESC LIMIT 1",
  ).get(worktree, path, owner) as VersionAt | undefined;
}

/** The owner's own newest version of the file (kept by it, or written back by recover). */
export function lastOwnVersion(db: Db, worktree: string, path: string, owner: string): VersionAt | undefined {
  return stmt(
    db,
    "SELECT version, seq FROM preserved WHERE worktree = ? AND path = ? AND owner = ? AND reason IN ('owner', 'recovered') ORDER BY version DESC LIMIT 1",
  ).get(worktree, path, owner) as VersionAt | undefined;
}

/** A clobber the owner has not been told about yet: the columns the telling reads. */
export type ClobberRow = Pick<ClobberRecord, "seq" | "path" | "actor" | "version" | "change" | "via">;

/** The owner's clobbers not yet told, oldest first (one indexed lookup). */
export function untoldClobbers(db: Db, owner: string): ClobberRow[] {
  return stmt(
    db,
    "SELECT seq, path, actor, version, change, via FROM clobbers WHERE owner = ? AND noticed = 0 ORDER BY seq",
  ).all(owner) as ClobberRow[];
}
