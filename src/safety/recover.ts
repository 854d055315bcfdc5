import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { fileStamp } from "../git/status.js";
import { blobPath, readBlob } from "../store/blobs/files.js";
import type { Db } from "../store/db.js";
import { append, write } from "../store/ledger/append.js";
import { newestKept, nextVersion } from "../store/safety/kept.js";
import {
  lastClobberedVersion,
  lastOwnVersion,
  newestPreserved,
  type PreservedRow,
  versionsOf,
} from "../store/safety/preserved.js";
import { preserveFiles } from "./preserve.js";

export interface RecoverRequest {
  db: Db;
  blobsDir: string;
  worktree: string;
  /** Path relative to the worktree. */
  key: string;
  owner: string;
  /** A chosen version; default: the one the newest clobber points at, else the newest. */
  version?: number;
  /** Who runs the recovery (null: a person outside any session). */
  actor: string | null;
  now: number;
}

export interface RecoverResult {
  version: number;
  bytes: number;
  /** The file already held exactly these bytes. */
  unchanged: boolean;
  /** The version the bytes found in the file were kept as, when they differed. */
  kept: number | null;
}

export { preservedPaths, versionsOf } from "../store/safety/preserved.js";

/**
 * The version the newest clobber points at; but when the owner left a newer version of its own
 * after that clobber (it went on editing), the owner's newest: recover returns its last bytes.
 */
function defaultVersion(db: Db, worktree: string, key: string, owner: string): number | undefined {
  const clobber = lastClobberedVersion(db, worktree, key, owner);
  const own = lastOwnVersion(db, worktree, key, owner);
  if (clobber && (!own || own.seq < clobber.seq)) return clobber.version;
  return own?.version ?? clobber?.version ?? newestPreserved(db, worktree, key, owner)?.version;
}

/** Replaces the file in one rename, so a crash leaves the old bytes or the new ones, never half. */
function writeAtomically(abs: string, data: Buffer, mode: number): void {
  mkdirSync(dirname(abs), { recursive: true });
  const tmp = join(dirname(abs), `.tandem-recover-${process.pid}-${Date.now()}`);
  try {
    writeFileSync(tmp, data, { flag: "wx", mode });
    chmodSync(tmp, mode);
    renameSync(tmp, abs);
  } finally {
    rmSync(tmp, { force: true });
  }
}

export class RecoverError extends Error {}

/**
 * A version's bytes from the blob store, or a RecoverError saying in plain words that they are
 * gone (deleted outside Tandem) or damaged, instead of a raw ENOENT.
 */
function preservedBytes(blobsDir: string, row: PreservedRow): Buffer {
  if (!existsSync(blobPath(blobsDir, row.blob)))
    throw new RecoverError(
      `Tandem's copy of version ${row.version} is missing: its blob ${row.blob.slice(0, 12)} was deleted from ${blobsDir} outside Tandem, so this version cannot be restored (the file itself was not touched)`,
    );
  try {
    return readBlob(blobsDir, row.blob);
  } catch (err) {
    throw new RecoverError(
      `Tandem's copy of version ${row.version} cannot be read: ${(err as Error).message}`,
    );
  }
}

/**
 * Puts a preserved version back. Bytes found in the file that differ from it are
 * first preserved as a new version, so a recovery never silently loses a newer edit.
 */
export function recoverFile(req: RecoverRequest): RecoverResult {
  const { db, worktree, key, owner } = req;
  const version = req.version ?? defaultVersion(db, worktree, key, owner);
  const row = versionsOf(db, worktree, key, owner).find((v) => v.version === version);
  if (version === undefined || !row) throw new RecoverError(`no preserved version ${version ?? ""}`.trim());
  const data = preservedBytes(req.blobsDir, row);
  const abs = join(worktree, key);
  const present = existsSync(abs);
  if (present && readFileSync(abs).equals(data)) {
    keptAsRecovered(req, row);
    return { version: row.version, bytes: data.length, unchanged: true, kept: null };
  }
  let kept: number | null = null;
  if (present) {
    const stamp = fileStamp(abs);
    preserveFiles({
      db,
      blobsDir: req.blobsDir,
      worktree,
      files: [{ key, stamp, owner }],
      actor: req.actor,
      reason: "before-recover",
      now: req.now,
    });
    const newest = newestPreserved(db, worktree, key, owner);
    if (newest?.stamp !== stamp)
      throw new RecoverError(`could not keep the bytes now in ${key} before replacing them`);
    kept = newest.version;
  }
  const mode = present ? statSync(abs).mode & 0o7777 : 0o644;
  writeAtomically(abs, data, mode);
  write(db, (tx) => {
    append(tx, {
      kind: "work.recovered",
      session: req.actor,
      ts: req.now,
      data: { worktree, path: key, owner, version: row.version, kept },
    });
    keptAsRecovered(req, row);
  });
  return { version: row.version, bytes: data.length, unchanged: false, kept };
}

/**
 * The bytes put back become the owner's newest kept version, so the watch compares the file to
 * them, not to what the recovery replaced (decision 0020). Nothing when they already are.
 */
function keptAsRecovered(req: RecoverRequest, row: PreservedRow): void {
  const { db, worktree, key, owner } = req;
  if (newestKept(db, worktree, key, owner)?.blob === row.blob) return;
  write(db, (tx) =>
    append(tx, {
      kind: "work.preserved",
      session: req.actor,
      ts: req.now,
      data: {
        worktree,
        path: key,
        owner,
        version: nextVersion(db, worktree, key, owner),
        blob: row.blob,
        bytes: row.bytes,
        stamp: fileStamp(join(worktree, key)),
        reason: "recovered",
      },
    }),
  );
}
