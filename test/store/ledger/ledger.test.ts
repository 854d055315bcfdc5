import { describe, expect, it } from "vitest";
import { ensureSession } from "../../../src/sessions/register.js";
import { allClaims } from "../../../src/store/claims/rows.js";
import { openDb, type WriteTx } from "../../../src/store/db.js";
import { listEvents } from "../../../src/store/events/list.js";
import { raw } from "../../../src/store/handle.js";
import { append, appendOne, write } from "../../../src/store/ledger/append.js";
import { SCHEMA_VERSION } from "../../../src/store/migrations.js";
import { dumpProjections, rebuildProjections } from "../../../src/store/repair/rebuild.js";
import { findSessions } from "../../../src/store/sessions/rows.js";
import { generateLedger } from "../../helpers/ledger-gen.js";
import { tempDir } from "../../helpers/repo.js";

const start = (nativeId: string) =>
  ({
    client: "claude-code",
    nativeId,
    kind: "session",
    parentId: null,
    agentPid: null,
    agentPidStart: null,
    cwd: "/r",
  }) as const;

describe("the event ledger", () => {
  it("creates a migrated WAL store with synchronous=FULL", () => {
    const db = openDb(tempDir());
    expect(raw(db).pragma("journal_mode", { simple: true })).toBe("wal");
    expect(raw(db).pragma("synchronous", { simple: true })).toBe(2);
    expect(raw(db).pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });

  it("refuses an event whose data does not match its kind's schema, and records nothing", () => {
    const db = openDb(tempDir());
    expect(() => appendOne(db, { kind: "task.set", session: null, data: { text: 5 } as never })).toThrow(
      /invalid event: task.set: text/,
    );
    expect(() => appendOne(db, { kind: "no.such" as never, session: null, data: {} as never })).toThrow(
      /unknown event kind/,
    );
    expect(listEvents(db)).toEqual([]);
  });

  it("refuses to append outside a transaction", () => {
    const db = openDb(tempDir());
    // The type forbids it; the runtime check stands behind the type for a cast or plain JS.
    expect(() => append(db as WriteTx, { kind: "task.set", session: null, data: { text: "x" } })).toThrow(
      /inside write/,
    );
  });

  it("updates the projections in the same transaction as the event", () => {
    const db = openDb(tempDir());
    const { session } = write(db, (tx) => ensureSession(tx, start("n1")));
    write(db, (tx) => {
      append(tx, {
        kind: "claim.acquired",
        session: session.id,
        data: { worktree: "/r", path: "a.ts", disposition: "git", root: "/r" },
      });
      append(tx, { kind: "task.set", session: session.id, data: { text: "fix the parser" } });
    });
    expect(allClaims(db)).toMatchObject([{ path: "a.ts", session_id: session.id }]);
    expect(findSessions(db, "n1")[0]).toMatchObject({ task: "fix the parser", name: session.name });
    // A failing transaction leaves neither the event nor its projection behind.
    expect(() =>
      write(db, (tx) => {
        append(tx, {
          kind: "claim.released",
          session: session.id,
          data: { worktree: "/r", path: "a.ts", reason: "explicit" },
        });
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(allClaims(db)).toHaveLength(1);
    expect(listEvents(db, { kind: "claim.released" })).toEqual([]);
  });

  it("gives every session a distinct name and finds it by native id, name or internal id", () => {
    const db = openDb(tempDir());
    const names = new Set<string>();
    for (let i = 0; i < 120; i++)
      names.add(write(db, (tx) => ensureSession(tx, start(`s${i}`))).session.name);
    expect(names.size).toBe(120);
    const again = write(db, (tx) => ensureSession(tx, start("s3")));
    expect(again.created).toBe(false);
    expect(findSessions(db, again.session.name)[0]!.id).toBe(again.session.id);
    expect(findSessions(db, again.session.id)[0]!.native_id).toBe("s3");
  });

  it("rebuilds identical projections from a ledger of 10,000 mixed events", () => {
    const db = openDb(tempDir());
    generateLedger(db, 10_000);
    expect(listEvents(db).length).toBeGreaterThanOrEqual(10_000);
    const before = dumpProjections(db);
    expect(before.claims!.length).toBeGreaterThan(10);
    expect(before.touched!.length).toBeGreaterThan(10);
    expect(rebuildProjections(db)).toBeGreaterThanOrEqual(10_000);
    expect(dumpProjections(db)).toEqual(before);
  });

  it("repairs projections that drifted from the ledger", () => {
    const db = openDb(tempDir());
    generateLedger(db, 500);
    const before = dumpProjections(db);
    raw(db).exec("DELETE FROM claims; UPDATE sessions SET task = 'tampered'");
    expect(dumpProjections(db)).not.toEqual(before);
    rebuildProjections(db);
    expect(dumpProjections(db)).toEqual(before);
  });
});
