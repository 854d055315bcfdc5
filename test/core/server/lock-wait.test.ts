import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../../src/config/schema.js";
import { STORE_LOCK_SECONDS } from "../../../src/config/store-lock.js";
import { inSpell, lockWaitLeft } from "../../../src/core/server/lock-wait.js";
import { DEFAULT_LOCK_SECONDS } from "../../../src/store/db.js";

describe("how long a request waits for the store's write lock", () => {
  it("is one bound of about five seconds, shared by the config default and every store connection", () => {
    expect(STORE_LOCK_SECONDS).toBe(5);
    expect(DEFAULT_CONFIG.storeLockSeconds).toBe(STORE_LOCK_SECONDS);
    expect(DEFAULT_LOCK_SECONDS).toBe(STORE_LOCK_SECONDS);
  });

  const T = 1_000_000;
  it.each([
    ["no lock found held", 5, null, T, 5],
    ["the lock found held just now, by a request that waited the bound", 5, T - 5000, T, 0.5],
    ["held for half the bound", 5, T - 2500, T, 2.5],
    ["held for nine tenths of the bound", 5, T - 4500, T, 0.5],
    ["a spell that began two bounds ago is over", 5, T - 10_000, T, 5],
    ["a spell dated in the future (clock set back) does not count", 5, T + 1000, T, 5],
    ["a configured bound of 1 s", 1, T - 1000, T, 0.1],
  ] as const)("%s: waits %s s of a %s s bound", (_what, bound, since, now, wait) => {
    expect(lockWaitLeft(bound, since, now)).toBeCloseTo(wait, 6);
  });

  it("counts a spell as held for two bounds from when it began", () => {
    expect(inSpell(5, T, T + 9999)).toBe(true);
    expect(inSpell(5, T, T + 10_000)).toBe(false);
    expect(inSpell(5, null, T)).toBe(false);
  });
});
