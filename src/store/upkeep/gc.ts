import { join } from "node:path";
import { type RetentionPolicy, versionsToExpire } from "../../core/upkeep/policy.js";
import {
  blobsToDelete,
  graceOf,
  preservedToExpire,
  sessionsToCompact,
  subagentsToExpire,
} from "../../core/upkeep/retention.js";
import { listBlobs, removeStaleTempFiles, sweepBlob } from "../blobs/files.js";
import type { Db, WriteTx } from "../db.js";
import { raw } from "../handle.js";
import { append, write } from "../ledger/append.js";
import { compactSession } from "./compact.js";
import {
  endedSessionFacts,
  preservedFacts,
  preservedKey,
  referencedBlobs,
  savedVersions,
  subagentFacts,
} from "./gc-facts.js";
import { storeBytes } from "./stamp.js";

export interface GcOptions {
  stateDir: string;
  olderThanMs: number;
  dryRun: boolean;
  /** Also rewrite the whole file (blocks every writer while it runs); see docs/decisions/0012. */
  fullVacuum?: boolean;
  now?: number;
  /** Events per write transaction: small, so hooks waiting for the lock get in between. */
  batchEvents?: number;
  /** The bound on saved bytes (decision 0065); absent, only the age rules apply. */
  policy?: RetentionPolicy;
}

export interface GcReport {
  dryRun: boolean;
  cutoff: number;
  sessions: number;
  events: number;
  preserved: number;
  /** Saved versions the retention policy let go (decision 0065). */
  policyVersions: number;
  /** Bytes the saved versions left hold, and the sessions still over their bound (only kept versions left). */
  savedBytes: number;
  sessionsOver: { owner: string; bytes: number }[];
  subagents: number;
  blobs: number;
  blobBytes: number;
  dbBytesBefore: number;
  dbBytesAfter: number;
  /** Pages SQLite keeps for reuse (the file does not shrink without incremental or full vacuum). */
  freeBytes: number;
  vacuum: "incremental" | "full" | "none";
}

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Runs `work` in short write transactions until it reports nothing left, resting as long as
 * each took (at least 10 ms) so a hook waiting for the write lock gets it between them.
 */
function inSlices(db: Db, work: (tx: WriteTx) => boolean, between?: (slice: number) => void): void {
  for (let slice = 1; ; slice++) {
    const started = performance.now();
    const more = write(db, work);
    if (!more) return;
    between?.(slice);
    pause(Math.max(10, performance.now() - started));
  }
}

const chunks = <T>(xs: readonly T[], n: number): T[][] =>
  Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, (i + 1) * n));

/**
 * `tandem gc` (docs/decisions/0012): compacts ended sessions older than the bound, expires the
 * artifacts and preserved bytes nobody can need, deletes blobs no record references, and
 * gives the space back, in slices that keep hooks answering. A dry run decides the same and
 * changes nothing.
 */
export function runGc(db: Db, opts: GcOptions): GcReport {
  const now = opts.now ?? Date.now();
  const cutoff = now - opts.olderThanMs;
  const blobsDir = join(opts.stateDir, "blobs");
  const before = storeBytes(opts.stateDir);
  const sessionFacts = endedSessionFacts(db, cutoff);
  const sessions = sessionsToCompact(sessionFacts, cutoff);
  const compactable = new Map(sessionFacts.map((s) => [s.id, s.compactable]));
  const subs = subagentsToExpire(subagentFacts(db), cutoff);
  const preserved = preservedToExpire(preservedFacts(db, cutoff), cutoff);
  const byPolicy = policyExpiry(db, new Set(preserved.map(preservedKey)), opts.policy);
  const report: GcReport = {
    dryRun: opts.dryRun,
    cutoff,
    sessions: sessions.length,
    events: sessions.reduce((n, id) => n + (compactable.get(id) ?? 0), 0),
    preserved: preserved.length,
    policyVersions: byPolicy.expire.length,
    savedBytes: byPolicy.savedBytes,
    sessionsOver: byPolicy.over,
    subagents: subs.length,
    blobs: 0,
    blobBytes: 0,
    dbBytesBefore: before,
    dbBytesAfter: before,
    freeBytes: 0,
    vacuum: "none",
  };
  if (opts.dryRun) {
    const referenced = referencedBlobs(db, {
      subagents: new Set(subs),
      preserved: new Set([...preserved, ...byPolicy.expire].map(preservedKey)),
    });
    const doomed = blobsToDelete(listBlobs(blobsDir), referenced, now, byPolicy.released);
    report.blobs = doomed.length;
    report.blobBytes = doomed.reduce((n, b) => n + b.bytes, 0);
    report.freeBytes = freeBytes(db);
    return report;
  }
  const done = compactAll(db, sessions, cutoff, now, opts.batchEvents ?? 500);
  report.sessions = done.sessions;
  report.events = done.events;
  write(db, (tx) => {
    for (const ids of chunks(subs, 500))
      append(tx, { kind: "subagents.expired", session: null, ts: now, data: { ids } });
    for (const versions of chunks([...preserved, ...byPolicy.expire], 500))
      append(tx, { kind: "work.expired", session: null, ts: now, data: { versions } });
  });
  // Read after the expiry is committed: a record added since names a blob touched within the grace.
  const referenced = referencedBlobs(db);
  for (const b of blobsToDelete(listBlobs(blobsDir), referenced, now, byPolicy.released)) {
    const freed = sweepBlob(blobsDir, b.name, graceOf(b.name, now, byPolicy.released), now);
    if (freed > 0) report.blobs++;
    report.blobBytes += freed;
  }
  removeStaleTempFiles(blobsDir, 86_400_000, now);
  report.vacuum = giveSpaceBack(db, opts.fullVacuum === true);
  report.freeBytes = freeBytes(db);
  report.dbBytesAfter = storeBytes(opts.stateDir);
  write(db, (tx) =>
    append(tx, {
      kind: "store.gc",
      session: null,
      ts: now,
      data: {
        olderThanMs: opts.olderThanMs,
        sessions: report.sessions,
        events: report.events,
        preserved: report.preserved + report.policyVersions,
        subagents: report.subagents,
        blobs: report.blobs,
        blobBytes: report.blobBytes,
        dbBytesBefore: report.dbBytesBefore,
        dbBytesAfter: report.dbBytesAfter,
      },
    }),
  );
  return report;
}

/**
 * The retention policy over the saved versions the age rules keep (`aged` are expiring anyway),
 * with when each blob it releases was last recorded (its sweep needs no hour's grace).
 */
function policyExpiry(
  db: Db,
  aged: ReadonlySet<string>,
  policy: RetentionPolicy | undefined,
): {
  expire: [string, string, string, number][];
  released: Map<string, number>;
  savedBytes: number;
  over: { owner: string; bytes: number }[];
} {
  const versions = savedVersions(db).filter((v) => !aged.has(preservedKey(v.key)));
  if (!policy) {
    const savedBytes = [...new Map(versions.map((v) => [v.blob, v.bytes])).values()].reduce(
      (a, b) => a + b,
      0,
    );
    return { expire: [], released: new Map(), savedBytes, over: [] };
  }
  const verdict = versionsToExpire(versions, policy);
  const lastRecorded = new Map<string, number>();
  for (const v of versions) lastRecorded.set(v.blob, Math.max(v.ts, lastRecorded.get(v.blob) ?? 0));
  const released = new Map<string, number>();
  const byKey = new Map(versions.map((v) => [preservedKey(v.key), v]));
  for (const k of verdict.expire) {
    const v = byKey.get(preservedKey(k));
    if (v) released.set(v.blob, lastRecorded.get(v.blob) ?? v.ts);
  }
  return { expire: verdict.expire, released, savedBytes: verdict.repositoryBytes, over: verdict.over };
}

/** Compacts the sessions a few at a time (about `batch` events per transaction). */
function compactAll(
  db: Db,
  sessions: readonly string[],
  cutoff: number,
  now: number,
  batch: number,
): { sessions: number; events: number } {
  let next = 0;
  let removed = 0;
  let compacted = 0;
  inSlices(db, (tx) => {
    // A session skipped on the re-check still counts as work done, so a slice always ends.
    for (let work = 0; next < sessions.length && work < batch; ) {
      const n = compactSession(tx, sessions[next++]!, cutoff, now);
      removed += n;
      if (n > 0) compacted++;
      work += Math.max(n, 1);
    }
    return next < sessions.length;
  });
  return { sessions: compacted, events: removed };
}

function freeBytes(db: Db): number {
  const pages = raw(db).pragma("freelist_count", { simple: true }) as number;
  return pages * (raw(db).pragma("page_size", { simple: true }) as number);
}

/**
 * Checkpoints the WAL and returns free pages to the filesystem: incrementally, a slice at a
 * time, when the store was created for it; a full VACUUM (which also switches it to
 * incremental) only when asked, because it holds the write lock for the whole rewrite.
 * Checkpoints are PASSIVE, never waiting for or blocking a hook; the WAL this connection
 * leaves is cut back to 4 MB once a checkpoint has caught up with it.
 */
function giveSpaceBack(db: Db, full: boolean): GcReport["vacuum"] {
  raw(db).pragma(`journal_size_limit = ${4 * 1024 * 1024}`);
  raw(db).pragma("wal_checkpoint(PASSIVE)");
  let vacuum: GcReport["vacuum"] = "none";
  if (full) {
    raw(db).pragma("auto_vacuum = INCREMENTAL");
    raw(db).exec("VACUUM");
    vacuum = "full";
  } else if ((raw(db).pragma("auto_vacuum", { simple: true }) as number) === 2) {
    inSlices(
      db,
      () => {
        raw(db).pragma("incremental_vacuum(256)");
        return (raw(db).pragma("freelist_count", { simple: true }) as number) > 0;
      },
      // Keep the WAL short as pages move: a long one makes every reader slower.
      (slice) => {
        if (slice % 16 === 0) raw(db).pragma("wal_checkpoint(PASSIVE)");
      },
    );
    vacuum = "incremental";
  }
  raw(db).pragma("wal_checkpoint(PASSIVE)");
  return vacuum;
}
