import { copyFileSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { needsCopy, type PeerFile } from "../core/safety/clobber.js";
import {
  type BlobDurability,
  type BlobRef,
  blobTempPath,
  ensureBlobsDir,
  writeBlob,
  writeBlobFromFile,
} from "../store/blobs/files.js";
import type { Db } from "../store/db.js";
import { append, write } from "../store/ledger/append.js";
import { newestPreserved } from "../store/safety/preserved.js";

export { newestPreserved, type PreservedRow } from "../store/safety/preserved.js";

export function blobsDirOf(stateDir: string): string {
  return join(stateDir, "blobs");
}

/** Files up to this size are read whole; larger ones are copied, never held in memory. */
const READ_WHOLE = 4 * 1024 * 1024;

/** Copies one file into the blob store; null when it vanished or cannot be read. */
export function copyIntoBlobs(
  blobsDir: string,
  abs: string,
  durability: BlobDurability = "durable",
): BlobRef | null {
  try {
    if (statSync(abs).size <= READ_WHOLE) return writeBlob(blobsDir, readFileSync(abs), durability);
    const tmp = blobTempPath(blobsDir);
    try {
      copyFileSync(abs, tmp);
      return writeBlobFromFile(blobsDir, tmp, durability);
    } finally {
      rmSync(tmp, { force: true });
    }
  } catch {
    return null;
  }
}

export interface PreserveRequest {
  db: Db;
  blobsDir: string;
  /** The root the keys are relative to. */
  worktree: string;
  files: readonly PeerFile[];
  /** Whose command this is; recorded on each event. */
  actor: string | null;
  reason: "peer-command" | "before-recover";
  now: number;
}

/**
 * Copies every peer file whose bytes changed since its last copy into the blob
 * store (outside the write lock), then records the new versions in one short
 * transaction. Returns how many copies were made.
 */
export function preserveFiles(req: PreserveRequest): number {
  const { db, worktree } = req;
  const fresh = needsCopy(req.files, (f) => newestPreserved(db, worktree, f.key, f.owner)?.stamp);
  if (fresh.length === 0) return 0;
  ensureBlobsDir(req.blobsDir);
  const copied = fresh
    .map((f) => ({ f, blob: copyIntoBlobs(req.blobsDir, join(worktree, f.key)) }))
    .filter((c): c is { f: PeerFile; blob: BlobRef } => c.blob !== null);
  return write(db, (tx) => {
    let made = 0;
    for (const { f, blob } of copied) {
      const newest = newestPreserved(db, worktree, f.key, f.owner);
      if (newest?.stamp === f.stamp && newest.blob === blob.sha256) continue;
      append(tx, {
        kind: "work.preserved",
        session: req.actor,
        ts: req.now,
        data: {
          worktree,
          path: f.key,
          owner: f.owner,
          version: (newest?.version ?? 0) + 1,
          blob: blob.sha256,
          bytes: blob.bytes,
          stamp: f.stamp,
          reason: req.reason,
        },
      });
      made++;
    }
    return made;
  });
}
