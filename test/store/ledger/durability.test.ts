import { describe, expect, it } from "vitest";
import { type Db, openDb, type WriteTx } from "../../../src/store/db.js";
import { inTx, raw } from "../../../src/store/handle.js";
import { append, write } from "../../../src/store/ledger/append.js";
import { commitByKind, isObservational, syncWal } from "../../../src/store/ledger/durability.js";
import { tempDir } from "../../helpers/repo.js";

const synchronous = (db: Db) => raw(db).pragma("synchronous", { simple: true });
const FULL = 2;

/** One gating-durability transaction appending `kinds`' events; returns how often it synced the WAL. */
function commitWith(db: Db, appendAll: (tx: WriteTx) => void): number {
  let syncs = 0;
  commitByKind(
    db,
    () =>
      raw(db)
        .transaction(() => appendAll(inTx<WriteTx>(db)))
        .immediate(),
    () => {
      syncs++;
    },
  );
  return syncs;
}

describe("which commits wait for the disk", () => {
  it("commits a tool call's observations without a sync, but syncs once for a session's end", () => {
    const db = openDb(tempDir());
    const requested = (tx: WriteTx) =>
      append(tx, {
        kind: "tool.requested",
        session: null,
        data: { tool: "Write", toolUseId: "t1", targets: ["a.txt"], inputBytes: 1, inputDigest: "x" },
      });
    expect(commitWith(db, requested)).toBe(0);
    const claimed = (tx: WriteTx) => {
      requested(tx);
      append(tx, { kind: "session.ended", session: null, data: { reason: "gone" } });
    };
    expect(commitWith(db, claimed)).toBe(1);
    expect(raw(db).prepare("SELECT count(*) AS n FROM events").get()).toEqual({ n: 3 });
    expect(synchronous(db)).toBe(FULL);
  });

  it("commits a kept copy of bytes still in place without a sync, but syncs a preserve before a peer's command", () => {
    const db = openDb(tempDir());
    const preserved = (reason: string, version: number) => (tx: WriteTx) =>
      append(tx, {
        kind: "work.preserved",
        session: null,
        data: {
          worktree: "/w",
          path: "f.txt",
          owner: "a",
          version,
          blob: "0".repeat(64),
          bytes: 1,
          stamp: "1:1:420",
          reason,
        } as never,
      });
    expect(commitWith(db, preserved("owner", 1))).toBe(0);
    expect(commitWith(db, preserved("clobbered", 2))).toBe(0);
    expect(commitWith(db, preserved("peer-command", 3))).toBe(1);
    expect(commitWith(db, preserved("before-recover", 4))).toBe(1);
    expect(commitWith(db, preserved("recovered", 5))).toBe(1);
  });

  it("leaves the store at FULL after a transaction that failed, and syncs nothing for it", () => {
    const db = openDb(tempDir());
    const failing = (tx: WriteTx) => {
      append(tx, { kind: "session.ended", session: null, data: { reason: "gone" } });
      throw new Error("boom");
    };
    expect(() => commitWith(db, failing)).toThrow("boom");
    expect(synchronous(db)).toBe(FULL);
    expect(commitWith(db, () => {})).toBe(0);
  });

  it("treats every kind that changes what is held or owned as gating", () => {
    for (const kind of [
      "claim.acquired",
      "claim.released",
      "files.touched",
      "session.started",
      "work.preserved",
    ])
      expect(isObservational(kind as never), kind).toBe(false);
    for (const kind of ["tool.requested", "tool.completed", "turn.stopped"])
      expect(isObservational(kind as never), kind).toBe(true);
  });

  it("writes nested in an open transaction under the outer one's commit", () => {
    const db = openDb(tempDir());
    const syncs = commitWith(db, () =>
      write(
        db,
        (tx) => append(tx, { kind: "session.ended", session: null, data: { reason: "x" } }),
        "gating",
      ),
    );
    expect(syncs).toBe(1);
  });

  it("forces the WAL of a real store to the disk", () => {
    const db = openDb(tempDir());
    write(db, (tx) => append(tx, { kind: "session.ended", session: null, data: { reason: "x" } }), "gating");
    expect(() => syncWal(db)).not.toThrow();
  });
});
