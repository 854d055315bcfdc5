import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diffLines, type Hunk } from "../../../src/core/lines/diff.js";
import { merge3, touches } from "../../../src/core/lines/merge.js";

const L = (s: string): string[] => (s === "" ? [] : s.split("").map((c) => `${c}\n`));
const S = (lines: readonly string[]): string => lines.map((l) => l.trim()).join("");

describe("touches", () => {
  it.each([
    [{ start: 2, end: 4 }, { start: 4, end: 5 }, 0, false],
    [{ start: 2, end: 4 }, { start: 3, end: 5 }, 0, true],
    [{ start: 4, end: 4 }, { start: 2, end: 4 }, 0, true],
    [{ start: 5, end: 5 }, { start: 2, end: 4 }, 0, false],
    [{ start: 7, end: 8 }, { start: 2, end: 4 }, 3, false],
    [{ start: 6, end: 8 }, { start: 2, end: 4 }, 3, true],
  ])("%j and %j, margin %i: %s", (x, y, margin, want) => {
    expect(touches(x, y, margin)).toBe(want);
    expect(touches(y, x, margin)).toBe(want);
  });
});

describe("merge3", () => {
  it.each([
    ["abcdefgh", "Abcdefgh", "abcdefgH", 3, "AbcdefgH"],
    ["abcdefgh", "abXcdefgh", "abcdefgh", 3, "abXcdefgh"],
    ["abcdefgh", "aXcdefgh", "aXcdefgh", 3, "aXcdefgh"],
    ["abcdefgh", "Abcdefgh", "abcdeYgh", 3, "AbcdeYgh"],
  ])("%s + %s + %s (margin %i) = %s", (base, ours, theirs, margin, want) => {
    const m = merge3(L(base), L(ours), L(theirs), margin);
    expect(m.ok && S(m.lines)).toBe(want);
  });

  it.each([
    ["abcdefgh", "aXcdefgh", "abYdefgh", 1],
    ["abcdefgh", "Abcdefgh", "abcDefgh", 3],
    ["abcdefgh", "aXcdefgh", "aYcdefgh", 0],
  ])("%s + %s + %s (margin %i) clashes", (base, ours, theirs, margin) => {
    const m = merge3(L(base), L(ours), L(theirs), margin);
    expect(m.ok).toBe(false);
    if (!m.ok) expect(m.clashes.length).toBeGreaterThan(0);
  });

  it("never loses a side's hunk: each side's changed lines stand verbatim in the merge, in place", () => {
    const line = fc.constantFrom("a\n", "b\n", "c\n", "d\n", "e\n", "f\n", "g\n");
    const edit = fc.record({ at: fc.nat(), cut: fc.nat({ max: 3 }), put: fc.array(line, { maxLength: 3 }) });
    const edited = (base: string[], edits: { at: number; cut: number; put: string[] }[]): string[] => {
      const out = [...base];
      for (const e of edits) out.splice(e.at % (out.length + 1), e.cut, ...e.put);
      return out;
    };
    let merged = 0;
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 5, maxLength: 40 }),
        fc.array(edit, { maxLength: 3 }),
        fc.array(edit, { maxLength: 3 }),
        fc.integer({ min: 0, max: 3 }),
        (base, eo, et, margin) => {
          const ours = edited(base, eo);
          const theirs = edited(base, et);
          const m = merge3(base, ours, theirs, margin);
          if (!m.ok) return;
          merged++;
          const ho = diffLines(base, ours);
          const ht = diffLines(base, theirs);
          for (const [mine, hm, other, hx] of [
            [ours, ho, theirs, ht],
            [theirs, ht, ours, ho],
          ] as const) {
            for (const h of hm) {
              // Its place in the merge: where it starts in its own side, moved by the other side's hunks before it.
              // A hunk the other side made alike is already counted in `mine`'s own positions.
              const alike = (g: Hunk) =>
                hm.some(
                  (k) =>
                    k.aStart === g.aStart &&
                    k.aEnd === g.aEnd &&
                    S(mine.slice(k.bStart, k.bEnd)) === S(other.slice(g.bStart, g.bEnd)),
                );
              const shift = hx
                .filter((g) => g.aEnd <= h.aStart && !alike(g))
                .reduce((n, g) => n + (g.bEnd - g.bStart) - (g.aEnd - g.aStart), 0);
              const at = h.bStart + shift;
              expect(S(m.lines.slice(at, at + h.bEnd - h.bStart))).toBe(S(mine.slice(h.bStart, h.bEnd)));
            }
          }
        },
      ),
      { numRuns: 500 },
    );
    expect(merged).toBeGreaterThan(100);
  });
});
