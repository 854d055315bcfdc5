import { describe, expect, it } from "vitest";
import { spread } from "../helpers/spread.js";

describe("spread: the clients tier's files among the system tier's (test/sequencer.ts)", () => {
  it.each([
    { few: [], many: [1, 2, 3], want: [1, 2, 3] },
    { few: ["a"], many: [], want: ["a"] },
    { few: ["a", "b"], many: [], want: ["a", "b"] },
    { few: ["a"], many: [1, 2, 3], want: ["a", 1, 2, 3] },
    { few: ["a", "b"], many: [1, 2, 3, 4], want: ["a", 1, 2, "b", 3, 4] },
    { few: ["a", "b", "c"], many: [1, 2, 3, 4, 5, 6, 7], want: ["a", 1, 2, "b", 3, 4, 5, "c", 6, 7] },
    { few: ["a", "b", "c"], many: [1], want: ["a", "b", 1, "c"] },
  ])("$few among $many", ({ few, many, want }) => {
    expect(spread<string | number>(few, many)).toEqual(want);
  });

  it("keeps every file once, and each list's order", () => {
    const few = Array.from({ length: 30 }, (_, i) => `c${i}`);
    const many = Array.from({ length: 216 }, (_, i) => `s${i}`);
    const out = spread<string>(few, many);
    expect([...out].sort()).toEqual([...few, ...many].sort());
    expect(out.filter((x) => x.startsWith("c"))).toEqual(few);
    expect(out.filter((x) => x.startsWith("s"))).toEqual(many);
    // Evenly: no two client files closer than 7 system files apart (216 / 30 = 7.2).
    const at = few.map((c) => out.indexOf(c));
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(8);
  });
});
