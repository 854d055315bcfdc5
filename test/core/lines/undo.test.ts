import { describe, expect, it } from "vitest";
import { attribute, type OwnedHunk } from "../../../src/core/lines/layout.js";
import { planUndo, previewHunk, undoneText } from "../../../src/core/lines/undo.js";

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
