import { describe, expect, it } from "vitest";
import type { LandResult } from "../../src/core/land/result.js";
import { commit, landAsync, landWorld, linear, remoteSubjects } from "./land-world.js";

const LANDED = ["pushed", "up-to-date", "fast-forwarded"];

/** Every lander of a round at once, each its own process; every one must land without a git error. */
async function landAll(repos: string[]): Promise<LandResult[]> {
  const runs = await Promise.all(repos.map((r) => landAsync(r)));
  return runs.map((r) => {
    expect(r.stderr).not.toMatch(/non-fast-forward|rejected|fatal|error/i);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    const result = JSON.parse(r.stdout) as LandResult;
    expect(LANDED).toContain(result.outcome);
    return result;
  });
}

describe("tandem land under contention", () => {
  it("two clones landing at the same moment, round after round, both get every commit in, linearly", async () => {
    const w = landWorld();
    const clones = [w.checkout("a"), w.checkout("b")];
    const subjects: string[] = [];
    for (let round = 0; round < 3; round++) {
      for (const [i, c] of clones.entries()) {
        const subject = `clone ${i} round ${round}`;
        commit(c, { [`c${i}-r${round}.txt`]: `${subject}\n` }, subject);
        subjects.push(subject);
      }
      await landAll(clones);
    }
    expect(remoteSubjects(w)).toEqual(expect.arrayContaining(subjects));
    expect(linear(w)).toBe(true);
  });
  // Two checkouts × four agents × 25 turns, with dirty files kept: land-sim.test.ts.
});
