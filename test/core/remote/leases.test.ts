import { describe, expect, it } from "vitest";
import {
  EMPTY_LEASES,
  type Lease,
  type LeaseDoc,
  leasesText,
  overlaps,
  parseLeases,
} from "../../../src/core/remote/leases.js";

const NOW = 1_800_000_000_000;
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
