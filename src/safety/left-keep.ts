/**
 * Left work's bytes are saved when it is found (decision 0029): a version of the gone owner's
 * whenever the file's bytes match none it already has kept as its newest, so `tandem recover PATH
 * --session OWNER` returns them whoever writes the file next. Clean candidates are settled.
 */
import { join } from "node:path";
import { findLeftWork, type LeftQuery } from "../claims/left-work.js";
import type { LeftItem, SettledMark } from "../core/claims/left-work.js";
import { fileStamp } from "../git/status.js";
import { type BlobRef, ensureBlobsDir } from "../store/blobs/files.js";
import type { Db, WriteTx } from "../store/db.js";
import { append, write } from "../store/ledger/append.js";
import { newestKept, nextVersion } from "../store/safety/kept.js";
import { sessionById } from "../store/sessions/rows.js";
import { copyIntoBlobs } from "./preserve.js";

export interface LeftKeepRequest {
  db: Db;
  blobsDir: string;
  worktree: string;
  left: readonly LeftItem[];
  clean: readonly SettledMark[];
  /** The session whose hook or command found it; null for a person. */
  actor: string | null;
  now: number;
}

interface Copy {
  item: LeftItem;
  stamp: string;
  blob: BlobRef;
}

/** Copies outside the write lock; a file whose stamp matches its newest kept version costs nothing. */
function copies(req: LeftKeepRequest): Copy[] {
  const out: Copy[] = [];
  for (const item of req.left) {
    const abs = join(req.worktree, item.path);
    const stamp = fileStamp(abs);
    if (stamp === "missing") continue;
    if (newestKept(req.db, req.worktree, item.path, item.owner.id)?.stamp === stamp) continue;
    ensureBlobsDir(req.blobsDir);
    const blob = copyIntoBlobs(req.blobsDir, abs);
    if (blob) out.push({ item, stamp, blob });
  }
  return out;
}

/** Returns how many versions it kept. */
export function keepLeftWork(req: LeftKeepRequest): number {
  const todo = copies(req);
  if (todo.length === 0 && req.clean.length === 0) return 0;
  const { db, worktree } = req;
  return write(
    db,
    (tx) => {
      let kept = 0;
      for (const { item, stamp, blob } of todo) {
        const owner = item.owner.id;
        if (newestKept(db, worktree, item.path, owner)?.blob === blob.sha256) continue;
        const version = nextVersion(db, worktree, item.path, owner);
        const data = { worktree, path: item.path, owner, version, blob: blob.sha256, bytes: blob.bytes };
        append(tx, {
          kind: "work.preserved",
          session: req.actor,
          ts: req.now,
          data: { ...data, stamp, reason: "owner" },
        });
        kept++;
      }
      settle(req, tx);
      return kept;
    },
    "gating",
  );
}

/**
 * Inside the write lock: an owner seen since the lookup came back (its hook may be writing the file
 * now), so its marks stay as they are; the next lookup judges them again.
 */
function settle(req: LeftKeepRequest, tx: WriteTx): void {
  const byOwner = new Map<string, SettledMark[]>();
  for (const c of req.clean) byOwner.set(c.owner, [...(byOwner.get(c.owner) ?? []), c]);
  for (const [owner, marks] of byOwner) {
    if (sessionById(req.db, owner)?.last_seen !== marks[0]?.seen) continue;
    const paths = [...new Set(marks.map((m) => m.path))];
    const held = [...new Set(marks.filter((m) => m.held).map((m) => m.path))];
    append(tx, {
      kind: "work.settled",
      session: req.actor,
      ts: req.now,
      data: { worktree: req.worktree, owner, paths, reason: "clean", ...(held.length ? { held } : {}) },
    });
  }
}

/** Finds left work (decision 0029) and saves the bytes not saved yet; returns what it found. */
export function noticeLeft(db: Db, q: LeftQuery, blobsDir: string, actor: string | null): LeftItem[] {
  const found = findLeftWork(db, q);
  keepLeftWork({ db, blobsDir, worktree: q.worktree, ...found, actor, now: q.now });
  return found.left;
}
