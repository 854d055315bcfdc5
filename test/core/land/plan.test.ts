import { describe, expect, it } from "vitest";
import { blockedPaths, LAND_ATTEMPTS, landStep, retryAfterLostRace } from "../../../src/core/land/plan.js";

describe("landStep", () => {
  const cases = [
    {
      name: "same commit",
      a: { local: "x", upstream: "x", upstreamInLocal: true, localInUpstream: true },
      step: "up-to-date",
    },
    {
      name: "only local commits",
      a: { local: "x", upstream: "u", upstreamInLocal: true, localInUpstream: false },
      step: "push",
    },
    {
      name: "only upstream commits",
      a: { local: "x", upstream: "u", upstreamInLocal: false, localInUpstream: true },
      step: "fast-forward",
    },
    {
      name: "both moved",
      a: { local: "x", upstream: "u", upstreamInLocal: false, localInUpstream: false },
      step: "rebase",
    },
  ] as const;
  for (const c of cases) it(`${c.name} → ${c.step}`, () => expect(landStep(c.a).kind).toBe(c.step));
});

describe("blockedPaths", () => {
  const holders = new Map([
    ["held-clean.txt", { claimed: ["Ada"], touched: [] }],
    ["held-dirty.txt", { claimed: ["Ada"], touched: ["Bo (you)"] }],
    ["touched-dirty.txt", { claimed: [], touched: ["Cy"] }],
    ["touched-clean.txt", { claimed: [], touched: ["Cy"] }],
  ]);
  it("blocks changed paths that are dirty or claimed, and ignores dirty or claimed paths the move leaves alone", () => {
    const dirty = new Set(["held-dirty.txt", "nobodys.txt", "touched-dirty.txt", "untouched-dirty.txt"]);
    const changed = ["free.txt", "held-clean.txt", "held-dirty.txt", "nobodys.txt", "touched-dirty.txt"];
    expect(blockedPaths(changed, dirty, holders)).toEqual([
      { path: "held-clean.txt", holders: ["Ada"], dirty: false },
      { path: "held-dirty.txt", holders: ["Ada", "Bo (you)"], dirty: true },
      { path: "nobodys.txt", holders: [], dirty: true },
      { path: "touched-dirty.txt", holders: ["Cy"], dirty: true },
    ]);
  });
  it("moves a file a session once changed but that is clean now", () => {
    expect(blockedPaths(["touched-clean.txt"], new Set(), holders)).toEqual([]);
  });
  it("blocks a path inside an untracked directory git reports as a whole", () => {
    expect(blockedPaths(["new/dir/f.txt"], new Set(["new/"]), new Map())).toEqual([
      { path: "new/dir/f.txt", holders: [], dirty: true },
    ]);
  });
  it("lets a move that touches nobody's work through", () => {
    expect(blockedPaths(["a.txt", "b/c.txt"], new Set(["d.txt"]), holders)).toEqual([]);
  });
});

describe("retryAfterLostRace", () => {
  it("retries a lost push race a bounded number of times", () => {
    expect(retryAfterLostRace(1)).toBe(true);
    expect(retryAfterLostRace(LAND_ATTEMPTS - 1)).toBe(true);
    expect(retryAfterLostRace(LAND_ATTEMPTS)).toBe(false);
  });
});
