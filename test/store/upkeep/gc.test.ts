import { existsSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BLOB_GRACE_MS } from "../../../src/core/upkeep/retention.js";
import { ensureSession } from "../../../src/sessions/register.js";
import { verifyBlob, writeBlob } from "../../../src/store/blobs/files.js";
import { type Db, openDb, type WriteTx } from "../../../src/store/db.js";
import { listEvents } from "../../../src/store/events/list.js";
import { raw } from "../../../src/store/handle.js";
import { append, write } from "../../../src/store/ledger/append.js";
import { dumpProjections, rebuildProjections } from "../../../src/store/repair/rebuild.js";
import { COMPACTABLE_KINDS, compactSession } from "../../../src/store/upkeep/compact.js";
import { runGc } from "../../../src/store/upkeep/gc.js";
import { referencedBlobs } from "../../../src/store/upkeep/gc-facts.js";
import { generateLedger } from "../../helpers/ledger-gen.js";
import { tempDir } from "../../helpers/repo.js";
import { GEN_WORKTREE, generateHistory, type HistoryShape } from "../../helpers/year-gen.js";

const DAY = 86_400_000;
const NOW = Date.now();
const MONTH = 30 * DAY;

const SMALL: HistoryShape = {
  sessions: 240,
  pathsPerSession: 5,
  chatterPerSession: 12,
  subagents: 8,
  subagentPatchBytes: 2048,
  preserved: 12,
  preservedBytes: 512,
  days: 100,
  endedBeforeMs: 3_600_000,
};

/** A generated history, then live sessions working now, one of them holding a file an old session claimed. */
function historyStore(): { stateDir: string; db: Db; old: string[] } {
  const stateDir = tempDir();
  const db = openDb(stateDir);
  const made = generateHistory(db, join(stateDir, "blobs"), SMALL, NOW);
  generateLedger(db, 600, 3, "live");
  write(db, (tx) => {
    const { session } = ensureSession(tx, {
      client: "codex",
      nativeId: "heir",
      kind: "session",
      parentId: null,
      agentPid: null,
      agentPidStart: null,
      cwd: GEN_WORKTREE,
    });
    const inherited = raw(db)
      .prepare("SELECT path FROM claim_history WHERE session_id = ? LIMIT 1")
      .get(made.sessions[0]) as {
      path: string;
    };
    append(tx, {
      kind: "claim.acquired",
      session: session.id,
      data: { worktree: GEN_WORKTREE, path: inherited.path, disposition: "git", root: GEN_WORKTREE },
    });
  });
  staleTakeover(db);
  const old = (
    raw(db)
      .prepare("SELECT id FROM sessions WHERE ended_seq IS NOT NULL AND last_seen < ?")
      .all(NOW - MONTH) as {
      id: string;
    }[]
  ).map((r) => r.id);
  return { stateDir, db, old };
}

/**
 * Long ago, a session that never ended (a stale one, kept whole) lost a claim to one that took it
 * over and ended: only the taker is compacted, and the holder's row its release ended must survive.
 */
function staleTakeover(db: Db): void {
  const ts = NOW - 60 * DAY;
  const start = (tx: WriteTx, nativeId: string) =>
    ensureSession(
      tx,
      {
        client: "cursor",
        nativeId,
        kind: "session",
        parentId: null,
        agentPid: null,
        agentPidStart: null,
        cwd: null,
      },
      ts,
    ).session.id;
  const claim = {
    worktree: GEN_WORKTREE,
    path: "src/contested.ts",
    disposition: "git" as const,
    root: GEN_WORKTREE,
  };
  write(db, (tx) => {
    const sleeper = start(tx, "sleeper");
    append(tx, { kind: "claim.acquired", session: sleeper, ts, data: claim });
    const taker = start(tx, "taker");
    append(tx, {
      kind: "claim.released",
      session: taker,
      ts: ts + 1000,
      data: { worktree: GEN_WORKTREE, path: claim.path, reason: "stale_takeover", holder: sleeper },
    });
    append(tx, { kind: "claim.acquired", session: taker, ts: ts + 1000, data: claim });
    append(tx, {
      kind: "claim.released",
      session: taker,
      ts: ts + 2000,
      data: { worktree: GEN_WORKTREE, path: claim.path, reason: "session_end" },
    });
    append(tx, { kind: "session.ended", session: taker, ts: ts + 2000, data: { reason: "exit" } });
  });
}

const withoutExpiry = (dump: Record<string, unknown[]>) => {
  const { preserved: _p, expired_subagents: _x, ...rest } = dump;
  return rest;
};

const eventsBySession = (db: Db) =>
  Object.fromEntries(
    (
      raw(db).prepare("SELECT session_id AS s, count(*) AS n FROM events GROUP BY session_id").all() as {
        s: string | null;
        n: number;
      }[]
    ).map((r) => [r.s ?? "-", r.n]),
  );

describe("tandem gc", () => {
  it("compacts ended sessions older than the bound into one summary each, keeps the others whole, and leaves views a rebuild reproduces", () => {
    const { stateDir, db, old } = historyStore();
    expect(old.length).toBeGreaterThan(100);
    const before = dumpProjections(db);
    const counts = eventsBySession(db);
    const kept = (
      raw(db)
        .prepare(
          `SELECT count(*) AS n FROM events WHERE session_id IN (SELECT value FROM json_each(?))
           AND kind NOT IN (SELECT value FROM json_each(?))`,
        )
        .get(JSON.stringify(old), JSON.stringify(COMPACTABLE_KINDS)) as { n: number }
    ).n;
    const report = runGc(db, { stateDir, olderThanMs: MONTH, dryRun: false, now: NOW });
    expect(report.sessions).toBe(old.length);
    // Sub-agent and safety-net events are read back by sequence number: they stay.
    expect(kept).toBeGreaterThan(0);
    expect(report.events).toBe(old.reduce((n, id) => n + counts[id]!, 0) - kept);

    // A store made by this version gives its free pages back a slice at a time.
    expect(report).toMatchObject({ vacuum: "incremental", freeBytes: 0 });
    expect(report.dbBytesAfter).toBeLessThan(report.dbBytesBefore);

    const after = dumpProjections(db);
    expect(withoutExpiry(after)).toEqual(withoutExpiry(before));
    expect(after.preserved!.length).toBe(before.preserved!.length - report.preserved);
    expect(after.expired_subagents).toHaveLength(report.subagents);

    const now = eventsBySession(db);
    const oldSet = new Set(old);
    for (const [s, n] of Object.entries(counts)) {
      // Old sessions keep their summary (and sub-agent events, never compacted); the rest every event.
      if (!oldSet.has(s)) expect(now[s], s).toBe(n);
    }
    const summaries = listEvents(db, { kind: "session.compacted" });
    expect(summaries.map((e) => e.session).sort()).toEqual([...old].sort());

    rebuildProjections(db);
    expect(dumpProjections(db)).toEqual(after);

    // A second run finds nothing left, and the rebuild still agrees.
    const again = runGc(db, { stateDir, olderThanMs: MONTH, dryRun: false, now: NOW });
    expect([again.sessions, again.events, again.subagents, again.preserved, again.blobs]).toEqual([
      0, 0, 0, 0, 0,
    ]);
    rebuildProjections(db);
    expect(dumpProjections(db)).toEqual(after);
    db.close();
  });

  it("judges a session again under the lock: one seen again since gc chose it keeps its history", () => {
    const { db, old } = historyStore();
    const id = old[0]!;
    write(db, (tx) =>
      append(tx, {
        kind: "claim.acquired",
        session: id,
        data: { worktree: GEN_WORKTREE, path: "src/back.ts", disposition: "git", root: GEN_WORKTREE },
      }),
    );
    expect(write(db, (tx) => compactSession(tx, id, NOW - MONTH, NOW))).toBe(0);
    expect(listEvents(db, { session: id, kind: "session.started" })).toHaveLength(1);
    db.close();
  });

  it("a dry run changes nothing and announces exactly what the run then frees", () => {
    const { stateDir, db } = historyStore();
    const before = dumpProjections(db);
    const events = listEvents(db).length;
    const dry = runGc(db, { stateDir, olderThanMs: MONTH, dryRun: true, now: NOW });
    expect(dumpProjections(db)).toEqual(before);
    expect(listEvents(db)).toHaveLength(events);
    const run = runGc(db, { stateDir, olderThanMs: MONTH, dryRun: false, now: NOW });
    for (const k of ["sessions", "events", "subagents", "preserved", "blobs", "blobBytes"] as const)
      expect(run[k], k).toBe(dry[k]);
    expect(run.blobs).toBeGreaterThan(0);
    db.close();
  });

  it("deletes the blobs of expired artifacts and old orphans, never a referenced or freshly stored one", () => {
    const { stateDir, db } = historyStore();
    const blobs = join(stateDir, "blobs");
    const orphanOld = writeBlob(blobs, Buffer.from("crashed capture, long ago")).sha256;
    const past = new Date(NOW - BLOB_GRACE_MS - 60_000);
    utimesSync(join(blobs, orphanOld), past, past);
    const orphanNew = writeBlob(blobs, Buffer.from("a capture being recorded right now")).sha256;
    const referencedBefore = referencedBlobs(db);
    runGc(db, { stateDir, olderThanMs: MONTH, dryRun: false, now: NOW });
    const referencedAfter = referencedBlobs(db);
    expect(referencedAfter.size).toBeGreaterThan(0);
    expect(referencedAfter.size).toBeLessThan(referencedBefore.size);
    for (const b of referencedAfter) expect(verifyBlob(blobs, b), b).toBe(true);
    for (const b of referencedBefore)
      if (!referencedAfter.has(b)) expect(existsSync(join(blobs, b)), b).toBe(false);
    expect(existsSync(join(blobs, orphanOld))).toBe(false);
    expect(existsSync(join(blobs, orphanNew))).toBe(true);
    db.close();
  });
});
