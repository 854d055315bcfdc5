import { describe, expect, it } from "vitest";
import type { Printer } from "../../src/core/printed.js";
import { failureVerdict } from "../../src/hooks/handler.js";
import { problemOfSqliteCode, StoreError, storeErrorOf } from "../../src/store/failure.js";

describe("store failures, as data", () => {
  it.each([
    ["SQLITE_CORRUPT", "corrupt"],
    ["SQLITE_CORRUPT_INDEX", "corrupt"],
    ["SQLITE_NOTADB", "corrupt"],
    ["SQLITE_READONLY", "readonly"],
    ["SQLITE_READONLY_DBMOVED", "missing"],
    ["SQLITE_BUSY", "locked"],
    ["SQLITE_BUSY_SNAPSHOT", "locked"],
    ["SQLITE_LOCKED", "locked"],
    ["SQLITE_CANTOPEN", "permission"],
    ["SQLITE_PERM", "permission"],
    ["SQLITE_IOERR_SHORT_READ", "unavailable"],
    ["SQLITE_FULL", "full"],
    ["SQLITE_ERROR", "unavailable"],
    ["ERR_INVALID_ARG", null],
  ])("%s is %s", (code, problem) => {
    expect(problemOfSqliteCode(code)).toBe(problem);
  });

  it("names fs errors met while opening, and leaves other errors alone", () => {
    const eacces = Object.assign(new Error("permission denied"), { code: "EACCES" });
    expect(storeErrorOf(eacces, "/x/state.db")?.problem).toBe("permission");
    expect(storeErrorOf(new Error("bug"), "/x/state.db")).toBeNull();
    const corrupt = Object.assign(new Error("database disk image is malformed"), { code: "SQLITE_CORRUPT" });
    expect(storeErrorOf(corrupt, "/x/state.db")).toMatchObject({ problem: "corrupt", lasting: true });
    const busy = Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
    expect(storeErrorOf(busy, "/x/state.db")).toMatchObject({ problem: "locked", lasting: false });
    expect(storeErrorOf(new TypeError("x"), "/x/state.db")).toBeNull();
    // A full disk is its own problem (decision 0065): every refusal names the disk.
    const enospc = Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
    expect(storeErrorOf(enospc, "/x/state.db")?.problem).toBe("full");
    // The store's own files vanishing under it is a store failure; another file's ENOENT is not.
    const enoent = (path: string) =>
      Object.assign(new Error(`ENOENT: open '${path}'`), { code: "ENOENT", path });
    expect(storeErrorOf(enoent("/x/state.db-wal"), "/x/state.db")).toMatchObject({ problem: "missing" });
    expect(storeErrorOf(enoent("/x/f.txt"), "/x/state.db")).toBeNull();
  });

  const busy = new StoreError("locked", "/r/.git/tandem/state.db", "SQLITE_BUSY: database is locked");
  const corrupt = new StoreError("corrupt", "/r/.git/tandem/state.db", "its write-ahead log vanished", true);
  const AGENT: Printer = { reader: "agent", launcher: "/r/bin/tandem" };
  const failures = {
    busy: { message: busy.message, store: busy },
    corrupt: { message: corrupt.message, store: corrupt },
    other: { message: "payload has no session_id", store: null },
  };
  it.each([
    ["pre-tool", "busy", true, false, "store-busy"],
    ["pre-tool", "busy", true, true, "store-busy"],
    ["pre-tool", "corrupt", true, false, "store-unavailable"],
    ["pre-tool", "corrupt", true, true, "store-unavailable"],
    ["pre-tool", "busy", false, false, null],
    ["pre-tool", "corrupt", false, true, "internal-error"],
    ["pre-tool", "other", true, false, null],
    ["pre-tool", "other", true, true, "internal-error"],
    ["post-tool", "corrupt", true, true, null],
    ["prompt", "busy", false, true, null],
    ["stop", "corrupt", false, false, null],
  ] as const)(
    "a %s hook's %s failure (gated: %s, failClosed: %s) answers %s",
    (kind, which, gated, failClosed, rule) => {
      const v = failureVerdict(kind, failures[which], gated, failClosed, AGENT);
      expect(v.rule).toBe(rule);
      expect(v.allow).toBe(rule === null);
      if (rule === "store-busy")
        expect(v.reason).toMatch(/store is busy.*is locked by another process.*Retry/);
      // Every command in it is spelled for the agent that reads it.
      if (rule === "store-unavailable") expect(v.reason).toMatch(/is corrupt.*`\/r\/bin\/tandem doctor`/);
      expect(v.reason ?? "").not.toMatch(/`tandem /);
    },
  );
});
