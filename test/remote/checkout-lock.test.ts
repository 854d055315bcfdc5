import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkoutFile, checkoutIdentity } from "../../src/remote/checkout.js";
import { syncLockFile, syncLockHolder, takeSyncLock } from "../../src/remote/sync-lock.js";
import { tempDir } from "../helpers/repo.js";

describe("a checkout's identity", () => {
  it("is created once with a random id and a readable name, then kept", () => {
    const state = tempDir();
    const first = checkoutIdentity(state, "/work/app");
    expect(first.id).toMatch(/^[0-9a-f]{16}$/);
    expect(first.name).toBe(`${hostname()}:/work/app`);
    expect(checkoutIdentity(state, "/elsewhere")).toEqual(first);
    expect(JSON.parse(readFileSync(checkoutFile(state), "utf8"))).toEqual(first);
    expect(checkoutIdentity(tempDir(), "/work/app").id).not.toBe(first.id);
  });

  it("replaces a damaged file", () => {
    const state = tempDir();
    writeFileSync(checkoutFile(state), "{not json");
    const id = checkoutIdentity(state, "/w");
    expect(checkoutIdentity(state, "/w")).toEqual(id);
  });
});

describe("the sync lock", () => {
  it("lets one round in at a time and takes over a dead holder's lock", () => {
    const state = tempDir();
    const release = takeSyncLock(state, Date.now());
    expect(typeof release).toBe("function");
    expect(syncLockHolder(state, Date.now())).toBe(process.pid);
    // The same pid is alive, so a second taker is told who holds it.
    expect(takeSyncLock(state, Date.now())).toEqual({ heldBy: process.pid });
    (release as () => void)();
    expect(syncLockHolder(state, Date.now())).toBeNull();
    const dead = spawnSync("true").pid!;
    writeFileSync(syncLockFile(state), `${dead}\n`);
    expect(syncLockHolder(state, Date.now())).toBeNull();
    expect(typeof takeSyncLock(join(state), Date.now())).toBe("function");
    expect(readFileSync(syncLockFile(state), "utf8").trim()).toBe(String(process.pid));
  });
});
