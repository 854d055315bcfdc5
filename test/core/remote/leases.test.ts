import { describe, expect, it } from "vitest";
import {
  EMPTY_LEASES,
  type Lease,
  type LeaseDoc,
  leasesText,
  missingOwn,
  overlaps,
  parseLeases,
  release,
  reserve,
  restore,
  SKEW_MARGIN_MS,
} from "../../../src/core/remote/leases.js";

const NOW = 1_800_000_000_000;
const A = { checkout: "ca", name: "laptop:/src/app" };
const B = { checkout: "cb", name: "box:/work/app" };
const lease = (path: string, holder = B, expires = NOW + 60_000): Lease => ({
  path,
  checkout: holder.checkout,
  checkoutName: holder.name,
  session: "agent-b",
  task: null,
  expires,
});
const doc = (...leases: Lease[]): LeaseDoc => ({ format: 1, leases });
const req = (...paths: string[]) => ({ paths, holder: A, session: "agent-a", task: "t", ttlMs: 3_600_000 });

describe("overlapping reservations", () => {
  it.each([
    ["src/a.ts", "src/a.ts", true],
    ["src", "src/a.ts", true],
    ["src/", "src/a.ts", true],
    ["src/a.ts", "src", true],
    ["src/a.ts", "src/a.tsx", false],
    ["src2", "src/a.ts", false],
  ])("%s and %s overlap: %s", (a, b, want) => {
    expect(overlaps(a, b)).toBe(want);
  });
});

describe("reserving paths", () => {
  it("takes free paths and refuses those another checkout holds, naming the holder", () => {
    const out = reserve(doc(lease("src/b.ts")), req("src/a.ts", "src/b.ts"), NOW);
    expect(out.won).toEqual(["src/a.ts"]);
    expect(out.lost.map((l) => [l.path, l.by.checkoutName])).toEqual([["src/b.ts", B.name]]);
    expect(out.changed).toBe(true);
    expect(out.doc.leases.map((l) => [l.path, l.checkout])).toEqual([
      ["src/b.ts", "cb"],
      ["src/a.ts", "ca"],
    ]);
  });

  it("refuses a file under a directory another checkout reserved", () => {
    expect(reserve(doc(lease("src")), req("src/a.ts"), NOW).won).toEqual([]);
  });

  it("extends its own lease instead of adding a second", () => {
    const mine = lease("src/a.ts", A, NOW + 1000);
    const out = reserve(doc(mine), req("src/a.ts"), NOW);
    expect(out.doc.leases).toHaveLength(1);
    expect(out.doc.leases[0]!.expires).toBe(NOW + 3_600_000);
  });

  it("frees another checkout's lease only a skew margin after it expired", () => {
    const justExpired = lease("src/a.ts", B, NOW - 1000);
    expect(reserve(doc(justExpired), req("src/a.ts"), NOW).won).toEqual([]);
    const longExpired = lease("src/a.ts", B, NOW - SKEW_MARGIN_MS);
    const out = reserve(doc(longExpired), req("src/a.ts"), NOW);
    expect(out.won).toEqual(["src/a.ts"]);
    expect(out.doc.leases.map((l) => l.checkout)).toEqual(["ca"]);
  });

  it("reports no change when nothing was won and nothing expired", () => {
    expect(reserve(doc(lease("x")), req("x"), NOW).changed).toBe(false);
  });
});

describe("releasing reservations", () => {
  it("releases only the holder's own leases, a directory releasing everything under it", () => {
    const current = doc(lease("src/a.ts", A), lease("src/b/c.ts", A), lease("src/d.ts", B), lease("srcx", A));
    const out = release(current, A, ["src/"], NOW);
    expect(out.won).toEqual(["src/a.ts", "src/b/c.ts"]);
    expect(out.doc.leases.map((l) => l.path)).toEqual(["src/d.ts", "srcx"]);
  });
});

describe("the lease document", () => {
  it("round-trips and ignores a document of another format or shape", () => {
    const d = doc(lease("a"));
    expect(parseLeases(leasesText(d))).toEqual(d);
    expect(parseLeases('{"format":2,"leases":[]}')).toBeNull();
    expect(parseLeases('{"format":1,"leases":[{"path":1}]}')).toBeNull();
    expect(parseLeases("not json")).toBeNull();
    expect(parseLeases(leasesText(EMPTY_LEASES))).toEqual(EMPTY_LEASES);
  });
});

describe("leases a forced push took from the remote", () => {
  const mine = (path: string, expires = NOW + 60_000) => lease(path, A, expires);

  it("finds this checkout's live leases the remote no longer holds, and only those", () => {
    const published = doc(mine("src/a.ts"), mine("src/old.ts", NOW - 2 * SKEW_MARGIN_MS), lease("src/b.ts"));
    expect(missingOwn(published, null, A.checkout, NOW).map((l) => l.path)).toEqual(["src/a.ts"]);
    expect(missingOwn(published, doc(mine("src/a.ts")), A.checkout, NOW)).toEqual([]);
    // Rewritten with an earlier expiry: still taken from this checkout.
    expect(missingOwn(published, doc(mine("src/a.ts", NOW + 1)), A.checkout, NOW)).toHaveLength(1);
  });

  it("puts them back with their expiry, unless another checkout took an overlapping path meanwhile", () => {
    const out = restore(doc(lease("src/b")), [mine("src/a.ts"), mine("src/b/x.ts")], NOW);
    expect(out.won).toEqual(["src/a.ts"]);
    expect(out.lost.map((l) => l.path)).toEqual(["src/b/x.ts"]);
    expect(out.doc.leases).toContainEqual(mine("src/a.ts"));
    expect(out.changed).toBe(true);
  });
});
