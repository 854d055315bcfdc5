import { describe, expect, it } from "vitest";
import { carriedHunks, linesText } from "../../../src/core/guards/commit-lines.js";
import { attribute } from "../../../src/core/lines/layout.js";

const L = (s: string): string[] => (s === "" ? [] : s.split("").map((c) => `${c}\n`));

describe("carriedHunks: which of a peer's hunks a staged file carries", () => {
  // P changed b→X (line 2), the committer changed j→Y (line 10).
  const base = "abcdefghijkl";
  const current = "aXcdefghiYkl";
  const hunks = attribute(L(base), L(base), [], L("aXcdefghijkl"), "P");
  const all = attribute(L(base), L("aXcdefghijkl"), hunks, L(current), "me");
  const peers = all.filter((h) => h.owners.includes("P"));

  it.each([
    ["only the committer's hunk", "abcdefghiYkl", []],
    ["nothing staged", base, []],
    ["the whole file", current, ["line 2"]],
    ["part of the peer's change", "aXcdefghijkl", ["line 2"]],
    ["a change beside the peer's lines", "abZdefghijkl", []],
  ])("%s", (_name, staged, want) => {
    expect(carriedHunks(L(base), L(staged), peers).map(linesText)).toEqual(want);
  });
});
