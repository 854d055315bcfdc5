/**
 * Every version an owner leaves is kept, and watched afterwards (docs/safety-net.md, decision
 * 0020): the I/O around core/safety/owner-versions.ts. Bytes are copied into the blob store outside the
 * write lock; one short transaction records them, re-checking that nobody recorded them meanwhile.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { encodesTo } from "../core/safety/intended.js";
import {
  type ChangeStep,
  changeStep,
  type OwnedFile,
  type StampStep,
  stampStep,
} from "../core/safety/owner-versions.js";
import { type BlobRef, blobPath, ensureBlobsDir, syncBlob, writeBlob } from "../store/blobs/files.js";
import type { Db, WriteTx } from "../store/db.js";
import { append, write } from "../store/ledger/append.js";
import { clobberedSince, newestKept, nextVersion, touchedSince } from "../store/safety/kept.js";
import { copyIntoBlobs } from "./preserve.js";

export interface WatchRequest {
  db: Db;
  blobsDir: string;
  /** The root the keys are relative to. */
  worktree: string;
  files: readonly OwnedFile[];
  /** The session whose hook does the check; recorded on the events (not as the clobber's actor). */
  actor: string | null;
  now: number;
  /** What the actor's own file tool call meant each of its files to hold (issue 37.1), by key. */
  intended?: ReadonlyMap<string, string>;
}

export interface Watched {
  /** Versions recorded (the owner's own, and the bytes that replaced them). */
  kept: number;
  /** Changes by an unknown writer recorded as `work.clobbered`. */
  clobbers: { key: string; owner: string }[];
}

interface Todo {
  f: OwnedFile;
  step: Exclude<StampStep, "same">;
  blob: BlobRef | null;
  /** The bytes the owner's call meant, stored, when the file holds others. */
  meant?: BlobRef;
}

/** Copies what a stamp says changed; a file that vanished meanwhile is left to the next check. */
function gather(req: WatchRequest): Todo[] {
  const out: Todo[] = [];
  for (const f of req.files) {
    const step = stampStep(f);
    if (step === "same") continue;
    if (step === "removed") {
      out.push({ f, step, blob: null });
      continue;
    }
    ensureBlobsDir(req.blobsDir);
    // The bytes stay in place in the work tree: the copy need be no more durable (decision 0036).
    const blob = copyIntoBlobs(req.blobsDir, join(req.worktree, f.key), "copy");
    if (blob) out.push({ f, step, blob, ...meantUnlessHeld(req, f, step, blob) });
  }
  return out;
}

/**
 * The owner's call meant other bytes than the file holds: another writer changed it since. The
 * meant bytes exist nowhere else, so they are stored durably.
 */
function meantUnlessHeld(
  req: WatchRequest,
  f: OwnedFile,
  step: StampStep,
  held: BlobRef,
): { meant?: BlobRef } {
  const text = f.owner === req.actor && step === "keep" ? req.intended?.get(f.key) : undefined;
  if (text === undefined) return {};
  if (heldText(req.blobsDir, held, text)) return {};
  return { meant: writeBlob(req.blobsDir, Buffer.from(text, "utf8"), "durable") };
}

/**
 * Whether the copy just stored holds `text`, compared byte for byte (cheaper than hashing the text:
 * a 4 MB Write's check costs a few ms). A copy that cannot be read counts as different: the meant
 * bytes are then stored, never lost.
 */
function heldText(blobsDir: string, held: BlobRef, text: string): boolean {
  try {
    return encodesTo(text, readFileSync(blobPath(blobsDir, held.sha256)));
  } catch {
    return false;
  }
}

export function keepAndWatch(req: WatchRequest): Watched {
  const todo = gather(req);
  const done: Watched = { kept: 0, clobbers: [] };
  if (todo.length === 0) return done;
  return write(
    req.db,
    (tx) => {
      for (const t of todo) record({ ...req, db: tx }, t, done);
      return done;
    },
    "gating",
  );
}

/** A request inside the write transaction: what records may append through. */
type InTx = Omit<WatchRequest, "db"> & { db: WriteTx };

function record(req: InTx, t: Todo, done: Watched): void {
  const { db, worktree } = req;
  const { key, owner } = t.f;
  const now = newestKept(db, worktree, key, owner);
  // Another hook recorded this file since the stamps were read: its record stands.
  if ((now?.seq ?? null) !== (t.f.kept?.seq ?? null)) return;
  if (t.step === "keep" && t.meant) {
    overwritten(req, t, t.meant, done);
    return;
  }
  if (t.step === "keep") {
    if (!now || now.blob !== t.blob!.sha256 || now.stamp !== t.f.stamp) keep(req, t, "owner", done);
    return;
  }
  const kept = t.f.kept!;
  const step: ChangeStep = changeStep({
    blob: t.blob?.sha256 ?? null,
    kept,
    recordedSince: clobberedSince(db, worktree, key, owner, kept.seq),
    removedByOwner: t.step === "removed" && touchedSince(db, owner, worktree, key, kept.seq),
  });
  if (step === "ignore") return;
  if (step === "restamp") keep(req, t, "owner", done);
  else if (t.blob) keep(req, t, "clobbered", done);
  if (step !== "clobber") return;
  // The version replaced now exists only as its kept copy: force that copy to the disk.
  syncBlob(req.blobsDir, kept.blob);
  clobbered(req, t, kept.version, done);
}

/**
 * The owner's call meant `meant`, the file holds other bytes: the meant ones are the owner's
 * version, what the file holds is kept as the bytes that replaced it, by a writer Tandem did not
 * see run, and the owner is told.
 */
function overwritten(req: InTx, t: Todo, meant: BlobRef, done: Watched): void {
  const version = keep(req, { ...t, blob: meant, f: { ...t.f, stamp: "meant" } }, "owner", done);
  keep(req, t, "clobbered", done);
  clobbered(req, t, version, done);
}

function clobbered(req: InTx, t: Todo, version: number, done: Watched): void {
  const { db, worktree } = req;
  const { key, owner } = t.f;
  append(db, {
    kind: "work.clobbered",
    session: req.actor,
    ts: req.now,
    data: {
      worktree,
      path: key,
      owner,
      actor: null,
      version,
      change: t.blob ? "changed" : "removed",
      via: "watch",
    },
  });
  done.clobbers.push({ key, owner });
}

function keep(req: InTx, t: Todo, reason: "owner" | "clobbered", done: Watched): number {
  const { key, owner } = t.f;
  const version = nextVersion(req.db, req.worktree, key, owner);
  append(req.db, {
    kind: "work.preserved",
    session: req.actor,
    // Recorded after the blob was stored and touched: gc may sweep a blob the retention policy
    // released once it is untouched since this time (decision 0065).
    ts: Math.max(req.now, Date.now()),
    data: {
      worktree: req.worktree,
      path: key,
      owner,
      version,
      blob: t.blob!.sha256,
      bytes: t.blob!.bytes,
      stamp: t.f.stamp,
      reason,
    },
  });
  done.kept++;
  return version;
}
