import { describe, expect, it } from "vitest";
import { attribute, type OwnedHunk } from "../../../src/core/lines/layout.js";
import { planUndo, previewHunk, undoneText } from "../../../src/core/lines/undo.js";
import type { UndoWindow } from "../../../src/core/lines/window.js";

const L = (s: string): string[] => (s === "" ? [] : s.split("").map((c) => `${c}\n`));
const S = (t: string): string => t.split("\n").join("");

function replay(base: string, steps: [string, string | null][]): OwnedHunk[] {
  let previous = L(base);
  let hunks: OwnedHunk[] = [];
  for (const [text, author] of steps) {
    hunks = attribute(L(base), previous, hunks, L(text), author);
    previous = L(text);
  }
  return hunks;
}

describe("undo per session", () => {
  it.each<[string, string, [string, string | null][], string, string, number]>([
    [
      "A's hunk back, B's kept",
      "abcdefghij",
      [
        ["aXcdefghij", "A"],
        ["aXcdefghYj", "B"],
      ],
      "aXcdefghYj",
      "abcdefghYj",
      0,
    ],
    ["nothing of A's: nothing changes", "abcdefghij", [["abcdefghYj", "B"]], "abcdefghYj", "abcdefghYj", 0],
    [
      "a person's later change inside A's hunk: a conflict, that hunk kept",
      "abcdefghij",
      [
        ["aXXdefghij", "A"],
        ["aXZdefghij", null],
      ],
      "aXZdefghij",
      "aXZdefghij",
      1,
    ],
  ])("%s", (_name, base, steps, current, want, conflicts) => {
    const hunks = replay(base, steps);
    const plan = planUndo(hunks, "A");
    expect(plan.conflicts.length).toBe(conflicts);
    expect(S(undoneText(L(base), L(current), hunks, plan))).toBe(want);
  });

  it("the preview shows the lines now and what comes back", () => {
    const hunks = replay("abc", [["aXc", "A"]]);
    expect(previewHunk(L("abc"), L("aXc"), hunks[0]!)).toEqual(["  line 2:", "    - X", "    + b"]);
  });
});

describe("undo of a window (decision 0074)", () => {
  const base = "abcdefghijklmnop";
  /** A's writes: [text, author, at, turn]; the plan of `window` for A as [revert starts, conflict causes]. */
  function planOf(steps: [string, string | null, number, number | null][], window: UndoWindow) {
    let previous = L(base);
    let hunks: OwnedHunk[] = [];
    for (const [text, author, at, turn] of steps) {
      hunks = attribute(L(base), previous, hunks, L(text), author, {
        first: { at, turn },
        last: { at, turn },
      });
      previous = L(text);
    }
    const plan = planUndo(hunks, "A", window);
    return [plan.revert.map((h) => h.bStart), plan.conflicts.map((c) => `${c.hunk.bStart}:${c.cause}`)];
  }
  const TURN2: UndoWindow = { kind: "turn", number: 2, turn: 20, from: 200, to: null };

  it.each<[string, [string, string | null, number, number | null][], UndoWindow, [number[], string[]]]>([
    [
      "only the hunk of turn 2; turn 1's stays",
      [
        ["aXcdefghijklmnop", "A", 110, 10],
        ["aXcdefghijkYmnop", "A", 210, 20],
      ],
      TURN2,
      [[11], []],
    ],
    [
      "a hunk of turn 1 extended in turn 2 is a conflict, not half undone",
      [
        ["aXcdefghijklmnop", "A", 110, 10],
        ["aXYdefghijklmnop", "A", 210, 20],
      ],
      TURN2,
      [[], ["1:window"]],
    ],
    [
      "a peer's later change inside a hunk of the window is a conflict",
      [
        ["aXcdefghijklmnop", "A", 210, 20],
        ["aZcdefghijklmnop", "B", 220, null],
      ],
      TURN2,
      [[], ["1:author"]],
    ],
    [
      "--since takes what was written after it",
      [
        ["aXcdefghijklmnop", "A", 110, 10],
        ["aXcdefghijkYmnop", "A", 210, 20],
      ],
      { kind: "since", from: 150 },
      [[11], []],
    ],
    [
      "the whole session takes both",
      [
        ["aXcdefghijklmnop", "A", 110, 10],
        ["aXcdefghijkYmnop", "A", 210, 20],
      ],
      { kind: "all" },
      [[1, 11], []],
    ],
  ])("%s", (_name, steps, window, want) => {
    expect(planOf(steps, window)).toEqual(want);
  });
});
