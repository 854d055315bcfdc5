import { describe, expect, it } from "vitest";
import type { LeftItem } from "../../../src/core/claims/left-work.js";
import { START_LEFT_LINES, sessionStartContext } from "../../../src/core/ritual/start-context.js";

const NOW = 1_800_000_000_000;
const owner = {
  id: "s1",
  name: "amber",
  client: "claude-code",
  task: null,
  live: false,
  ended: true,
  at: NOW - 60_000,
};
const left = (n: number): LeftItem[] =>
  Array.from({ length: n }, (_, i) => ({ path: `f${i}.txt`, owner, hold: "session_end" as const }));
const context = (n: number) =>
  sessionStartContext({
    name: "blue",
    client: "claude-code",
    kind: "session",
    parentName: null,
    requireGitFinalization: true,
    peers: [],
    left: left(n),
    now: NOW,
  });

describe("left work in an agent's start context", () => {
  it("lists every left file while there are few, each with what to do", () => {
    const text = context(3);
    for (const i of [0, 1, 2]) expect(text).toContain(`- f${i}.txt: left by amber`);
    expect(text).toContain("tandem adopt f2.txt");
    expect(text).not.toContain("more:");
  });

  it("lists the first ones and counts the rest, naming the command that lists them all", () => {
    const text = context(START_LEFT_LINES + 7);
    expect(text.match(/: left by amber/g)).toHaveLength(START_LEFT_LINES);
    expect(text).not.toContain(`f${START_LEFT_LINES}.txt`);
    expect(text).toContain("- and 7 more: `tandem status` lists them all.");
  });

  it("says nothing about left work when there is none", () => {
    expect(context(0)).not.toContain("Left work");
  });
});
