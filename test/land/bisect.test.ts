import { describe, expect, it } from "vitest";
import { bisectWith } from "../../src/core/land/bisect.js";

/** A check that fails whenever the probe holds every unit of some culprit set. */
const failsWith =
  (...culprits: number[][]) =>
  (probe: number[]) =>
    !culprits.some((c) => c.every((u) => probe.includes(u)));

describe("batch bisection of a failing land.check", () => {
  it.each([
    { n: 1, culprits: [[0]], accepted: [], rejected: [0], probes: 0 },
    { n: 2, culprits: [[1]], accepted: [0], rejected: [1], probes: 1 },
    { n: 2, culprits: [[0]], accepted: [1], rejected: [0], probes: 2 },
    { n: 4, culprits: [[3]], accepted: [0, 1, 2], rejected: [3], probes: 2 },
    { n: 4, culprits: [[0]], accepted: [1, 2, 3], rejected: [0], probes: 4 },
    { n: 8, culprits: [[2], [6]], accepted: [0, 1, 3, 4, 5, 7], rejected: [2, 6], probes: 8 },
    { n: 5, culprits: [[0], [1], [2], [3], [4]], accepted: [], rejected: [0, 1, 2, 3, 4], probes: 8 },
    // Two commits that break the check only together: the later one is rejected, the earlier lands.
    { n: 4, culprits: [[1, 2]], accepted: [0, 1, 3], rejected: [2], probes: 3 },
  ])("$n units failing with $culprits: lands $accepted, rejects $rejected in $probes probes", (c) => {
    const r = bisectWith(c.n, failsWith(...c.culprits));
    expect(r).toEqual({ accepted: c.accepted, rejected: c.rejected, probes: c.probes });
    // Whatever is accepted passes as a whole: the landed batch is one the check approved.
    expect(failsWith(...c.culprits)(r.accepted)).toBe(true);
  });

  it("tries each half on top of what already passed, and skips a half known to fail", () => {
    const seen: number[][] = [];
    const check = failsWith([2], [5]);
    bisectWith(8, (p) => {
      seen.push(p);
      return check(p);
    });
    expect(seen).toEqual([
      [0, 1, 2, 3],
      [0, 1],
      // [2, 3] after [0, 1] passed is known to fail: split without a check.
      [0, 1, 2],
      // [3] alone on top of [0, 1] (2 is out).
      [0, 1, 3],
      [0, 1, 3, 4, 5, 6, 7],
      [0, 1, 3, 4, 5],
      [0, 1, 3, 4],
      [0, 1, 3, 4, 6, 7],
    ]);
  });
});
