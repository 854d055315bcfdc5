/**
 * Which commits wait for the disk (docs/decisions/0018). The store runs at `synchronous=FULL`:
 * every commit fsyncs its WAL frames. Events that gate work must survive a power loss; the
 * observations a hook records around them (a tool call asked for or completed, a turn's verdict,
 * a shell command's snapshot) need only survive the process, which a plain WAL write already
 * gives. A `write(…, "gating")` transaction therefore commits at `synchronous=NORMAL` and fsyncs
 * the WAL itself afterwards when it appended any event not listed here, before its caller
 * answers — so a claim is on disk before the edit it allows.
 */
import { closeSync, fdatasyncSync, openSync } from "node:fs";
import { errorMessage } from "../../errors.js";
import type { Db, WriteTx } from "../db.js";
import type { EventKind } from "../events/schemas.js";
import { StoreError } from "../failure.js";
import { raw } from "../handle.js";

/** Kinds that record what happened without changing what any later decision reads as held or owned. */
const OBSERVATIONAL: ReadonlySet<EventKind> = new Set<EventKind>([
  "tool.requested",
  "tool.completed",
  "activity.set",
  "prompt.submitted",
  "status.checked",
  "turn.stopped",
  "hook.error",
  "task.set",
  "work.noticed",
]);

export function isObservational(kind: EventKind): boolean {
  return OBSERVATIONAL.has(kind);
}

/** Connections whose open transaction appended an event that must reach the disk. */
const mustSync = new WeakSet<Db>();

/**
 * A version kept of bytes that are still in place (the owner's own, or what replaced it) records a
 * copy as durable as its original (decision 0036); what makes the copy the only one — a clobber,
 * a preserve before a peer's command, a recover — is recorded by an event that does sync.
 */
function copiesBytesInPlace(kind: EventKind, data: unknown): boolean {
  if (kind !== "work.preserved") return false;
  const reason = (data as { reason?: unknown } | null)?.reason;
  return reason === "owner" || reason === "clobbered";
}

export function noteAppended(db: WriteTx, kind: EventKind, data?: unknown): void {
  if (!OBSERVATIONAL.has(kind) && !copiesBytesInPlace(kind, data)) mustSync.add(db);
}

/**
 * Runs `commit` (one whole transaction) at NORMAL, then forces the WAL to the disk (`sync`) when
 * a gating event was appended.
 */
export function commitByKind<T>(db: Db, commit: () => T, sync: (db: Db) => void = syncWal): T {
  mustSync.delete(db);
  raw(db).pragma("synchronous = NORMAL");
  let out: T;
  try {
    out = commit();
  } finally {
    raw(db).pragma("synchronous = FULL");
  }
  if (mustSync.has(db)) {
    mustSync.delete(db);
    sync(db);
  }
  return out;
}

/**
 * What FULL would have done at the commit: the WAL file's frames forced to the disk. A WAL that
 * vanished under an open connection (deleted, the store replaced) took what was just committed
 * with it: that is damage to the store, and the gate that found it refuses (decision 0008).
 */
export function syncWal(db: Db): void {
  let fd: number;
  try {
    fd = openSync(`${raw(db).name}-wal`, "r");
  } catch (err) {
    const why = `its write-ahead log vanished under an open connection (${errorMessage(err)}); what was just committed may be lost`;
    throw new StoreError("corrupt", raw(db).name, why, true);
  }
  try {
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
