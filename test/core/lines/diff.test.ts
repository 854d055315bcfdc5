import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diffLines, type Hunk, joinLines, mapPosition, splitLines } from "../../../src/core/lines/diff.js";

const L = (s: string): string[] => (s === "" ? [] : s.split("").map((c) => `${c}\n`));

/** Applies hunks of a→b to a, taking the new lines from b: must give b back. */
function apply(a: readonly string[], b: readonly string[], hunks: readonly Hunk[]): string[] {
  const out: string[] = [];
  let at = 0;
  for (const h of hunks) {
    out.push(...a.slice(at, h.aStart), ...b.slice(h.bStart, h.bEnd));
    at = h.aEnd;
  }
  return [...out, ...a.slice(at)];
}

describe("splitLines", () => {
  it.each([
    ["", []],
    ["a", ["a"]],
    ["a\n", ["a\n"]],
    ["a\nb", ["a\n", "b"]],
    ["a\r\n\nb\n", ["a\r\n", "\n", "b\n"]],
  ])("%j", (text, lines) => {
    expect(splitLines(text)).toEqual(lines);
    expect(joinLines(splitLines(text))).toBe(text);
  });
});

describe("diffLines", () => {
  it.each<[string, string, Hunk[]]>([
    ["abc", "abc", []],
    ["abc", "aXc", [{ aStart: 1, aEnd: 2, bStart: 1, bEnd: 2 }]],
    ["abc", "abXc", [{ aStart: 2, aEnd: 2, bStart: 2, bEnd: 3 }]],
    ["abc", "ac", [{ aStart: 1, aEnd: 2, bStart: 1, bEnd: 1 }]],
    ["", "ab", [{ aStart: 0, aEnd: 0, bStart: 0, bEnd: 2 }]],
    [
      "abcdefg",
      "XbcdefY",
      [
        { aStart: 0, aEnd: 1, bStart: 0, bEnd: 1 },
        { aStart: 6, aEnd: 7, bStart: 6, bEnd: 7 },
      ],
    ],
  ])("%s → %s", (a, b, hunks) => {
    expect(diffLines(L(a), L(b))).toEqual(hunks);
  });

  it("every diff applied to its left side gives the right side, hunks apart", () => {
    const text = fc.array(fc.constantFrom("a\n", "b\n", "c\n", "d\n"), { maxLength: 30 });
    fc.assert(
      fc.property(text, text, (a, b) => {
        const hunks = diffLines(a, b);
        expect(apply(a, b, hunks)).toEqual(b);
        for (const [i, h] of hunks.entries())
          if (i > 0) expect(h.aStart).toBeGreaterThan(hunks[i - 1]?.aEnd ?? -1);
      }),
    );
  });
});

describe("mapPosition", () => {
  const hunks = diffLines(L("abcdef"), L("aXXcdf"));
  it.each<[number, "before" | "after", number]>([
    [0, "before", 0],
    [1, "after", 1],
    [2, "before", 3],
    [2, "after", 3],
    [3, "before", 4],
    [4, "after", 5],
    [5, "before", 5],
    [6, "after", 6],
  ])("position %i (%s) lands at %i", (pos, bias, at) => {
    expect(mapPosition(hunks, pos, bias)).toBe(at);
  });
});
