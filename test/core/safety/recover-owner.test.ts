import { describe, expect, it } from "vitest";
import type { LeftOwner } from "../../../src/core/claims/left-work.js";
import { ambiguousMessage, chooseRecoverOwner, chosenLine } from "../../../src/core/safety/recover-owner.js";

const NOW = 1_000_000;
const owner = (name: string, live = false, task: string | null = null): LeftOwner => ({
  id: `id-${name}`,
  name,
  client: "codex",
  task,
  live,
  ended: !live,
  at: NOW - 120_000,
});

describe("whose bytes a person's recover restores without --session", () => {
  const amber = owner("amber", false, "fix the parser");
  const birch = owner("birch");
  const cedar = owner("cedar", true);
  const cases: [string, LeftOwner | null, LeftOwner[], ReturnType<typeof chooseRecoverOwner>][] = [
    [
      "the left-work owner, whoever else saved bytes",
      amber,
      [cedar, birch, amber],
      { kind: "left", owner: amber },
    ],
    ["the one gone session with saved versions", null, [cedar, amber], { kind: "saved", owner: amber }],
    [
      "every gone session, when several saved",
      null,
      [birch, cedar, amber],
      { kind: "ambiguous", owners: [birch, amber] },
    ],
    ["nobody, when only live sessions saved", null, [cedar], { kind: "none" }],
    ["nobody, when nothing was saved", null, [], { kind: "none" }],
  ];
  for (const [what, left, saved, want] of cases)
    it(`chooses ${what}`, () => expect(chooseRecoverOwner(left, saved)).toEqual(want));

  it("says whose bytes it restores and why", () => {
    expect(chosenLine("f.txt", { kind: "left", owner: amber }, NOW)).toBe(
      'f.txt is left work of amber (codex, task "fix the parser"), ended 2m ago: restoring its newest saved version.',
    );
    expect(chosenLine("f.txt", { kind: "saved", owner: birch }, NOW)).toBe(
      "f.txt has saved versions of one session that is gone, birch (codex, no task declared), ended 2m ago: restoring its newest.",
    );
  });

  it("names each candidate with the line to run", () => {
    expect(ambiguousMessage("f.txt", [birch, amber], NOW).split("\n")).toEqual([
      "f.txt has saved versions of 2 sessions that are gone; say whose bytes to restore:",
      "  tandem recover f.txt --session birch    # birch (codex, no task declared), ended 2m ago",
      '  tandem recover f.txt --session amber    # amber (codex, task "fix the parser"), ended 2m ago',
      "`tandem recover f.txt --list` shows every version of each.",
    ]);
  });
});
