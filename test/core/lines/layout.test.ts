import { describe, expect, it } from "vitest";
import {
  attribute,
  type OwnedHunk,
  renderOnly,
  UNATTRIBUTED,
  withoutHunks,
} from "../../../src/core/lines/layout.js";

const L = (s: string): string[] => (s === "" ? [] : s.split("").map((c) => `${c}\n`));
const S = (lines: readonly string[]): string => lines.map((l) => l.trim()).join("");
const owned = (hunks: OwnedHunk[]) => hunks.map((h) => [h.bStart, h.bEnd, h.owners.join("+")]);

/** A series of writes from one base, each with its author; the hunks after the last. */
function replay(base: string, steps: [string, string | null][]): { text: string; hunks: OwnedHunk[] } {
  let previous = L(base);
  let hunks: OwnedHunk[] = [];
  for (const [text, author] of steps) {
    hunks = attribute(L(base), previous, hunks, L(text), author);
    previous = L(text);
  }
  return { text: S(previous), hunks };
}

describe("attribute: who wrote each hunk", () => {
  it.each<[string, string, [string, string | null][], [number, number, string][]]>([
    ["one author", "abcdefghij", [["aXcdefghij", "A"]], [[1, 2, "A"]]],
    [
      "two authors far apart keep their own",
      "abcdefghij",
      [
        ["aXcdefghij", "A"],
        ["aXcdefghYj", "B"],
      ],
      [
        [1, 2, "A"],
        [8, 9, "B"],
      ],
    ],
    [
      "an unhooked writer's lines are unattributed",
      "abcdefghij",
      [
        ["aXcdefghij", "A"],
        ["aXcdeZghij", null],
      ],
      [
        [1, 2, "A"],
        [5, 6, UNATTRIBUTED],
      ],
    ],
    [
      "an insertion above moves A's hunk down, A keeps it",
      "abcdefghij",
      [
        ["abcdefgXij", "A"],
        ["PQabcdefgXij", "B"],
      ],
      [
        [0, 2, "B"],
        [9, 10, "A"],
      ],
    ],
    [
      "A's change undone by A leaves no hunk",
      "abcdef",
      [
        ["aXcdef", "A"],
        ["abcdef", "A"],
      ],
      [],
    ],
    [
      "a change into A's hunk makes it both authors'",
      "abcdefghij",
      [
        ["aXXdefghij", "A"],
        ["aXYdefghij", "B"],
      ],
      [[1, 3, "A+B"]],
    ],
  ])("%s", (_name, base, steps, want) => {
    expect(owned(replay(base, steps).hunks)).toEqual(want);
  });

  it("a commit of A's hunk (a new base) leaves B's hunk B's", () => {
    const { text, hunks } = replay("abcdefghij", [
      ["aXcdefghij", "A"],
      ["aXcdefghYj", "B"],
    ]);
    const after = attribute(L("aXcdefghij"), L(text), hunks, L(text), null);
    expect(owned(after)).toEqual([[8, 9, "B"]]);
  });
});

describe("one author's share", () => {
  const { text, hunks } = replay("abcdefghij", [
    ["aXcdefghij", "A"],
    ["aXcdefghYj", "B"],
  ]);
  it("renderOnly keeps the base and A's hunks: what A stages", () => {
    expect(S(renderOnly(L("abcdefghij"), L(text), hunks, (h) => h.owners.includes("A")))).toBe("aXcdefghij");
  });
  it("withoutHunks takes A's hunks back and leaves B's: A's undo", () => {
    expect(S(withoutHunks(L("abcdefghij"), L(text), hunks, (h) => h.owners.includes("A")))).toBe(
      "abcdefghYj",
    );
  });
});

describe("when a hunk was written (decision 0074)", () => {
  const base = "abcdefghij";
  /** Writes of A, each at time i+1 in turn 10*(i+1): the hunks' [start, end, first at, last at]. */
  function stamped(steps: string[]): [number, number, number, number][] {
    let previous = L(base);
    let hunks: OwnedHunk[] = [];
    steps.forEach((text, i) => {
      const at = { at: i + 1, turn: 10 * (i + 1) };
      hunks = attribute(L(base), previous, hunks, L(text), "A", { first: at, last: at });
      previous = L(text);
    });
    return hunks.map((h) => [h.bStart, h.bEnd, h.first.at, h.last.at]);
  }

  it.each<[string, string[], [number, number, number, number][]]>([
    ["one write: first and last are it", ["aXcdefghij"], [[1, 2, 1, 1]]],
    [
      "a far write leaves the earlier hunk's time alone",
      ["aXcdefghij", "aXcdefghYj"],
      [
        [1, 2, 1, 1],
        [8, 9, 2, 2],
      ],
    ],
    [
      "extending a hunk keeps its first write and moves its last",
      ["aXcdefghij", "aXYdefghij"],
      [[1, 3, 1, 2]],
    ],
    [
      "a write joining two hunks spans both",
      ["aXcdefghij", "aXcdefghij".replace("e", "E"), "aXcdEfghij".replace("c", "Z").replace("d", "Z")],
      [[1, 5, 1, 3]],
    ],
    [
      "an untouched hunk keeps its time across a later write elsewhere",
      ["aXcdefghij", "aXcdefghij"],
      [[1, 2, 1, 1]],
    ],
  ])("%s", (_name, steps, want) => {
    expect(stamped(steps)).toEqual(want);
  });

  it("keeps the turn the hook recorded with each end", () => {
    const one = attribute(L(base), L(base), [], L("aXcdefghij"), "A", {
      first: { at: 1, turn: 7 },
      last: { at: 1, turn: 7 },
    });
    const two = attribute(L(base), L("aXcdefghij"), one, L("aXYdefghij"), "A", {
      first: { at: 5, turn: 9 },
      last: { at: 5, turn: 9 },
    });
    expect(two.map((h) => [h.first, h.last])).toEqual([
      [
        { at: 1, turn: 7 },
        { at: 5, turn: 9 },
      ],
    ]);
  });
});
