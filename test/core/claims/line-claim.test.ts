import { describe, expect, it } from "vitest";
import { decideLineClaim } from "../../../src/core/claims/line-claim.js";
import { attribute } from "../../../src/core/lines/layout.js";

const L = (s: string): string[] => (s === "" ? [] : s.split("").map((c) => `${c}\n`));

/** The file after peer P changed it from `base`; the caller proposes `proposed`. */
function decide(base: string, peer: string, proposed: string, margin = 3, live = true) {
  const hunks = attribute(L(base), L(base), [], L(peer), "P");
  return decideLineClaim({
    current: L(peer),
    hunks,
    proposed: L(proposed),
    blocks: (o) => o === "P" && live,
    margin,
  });
}

describe("decideLineClaim", () => {
  it.each<[string, string, string, string, number, boolean]>([
    ["far from the peer's hunk", "abcdefghijkl", "aXcdefghijkl", "aXcdefghijkY", 3, true],
    ["exactly the margin away", "abcdefghijkl", "aXcdefghijkl", "aXcdeYghijkl", 3, true],
    ["one line inside the margin", "abcdefghijkl", "aXcdefghijkl", "aXcdYfghijkl", 3, false],
    ["on the peer's lines", "abcdefghijkl", "aXcdefghijkl", "aZcdefghijkl", 3, false],
    [
      "a Write from before the peer's change drops it",
      "abcdefghijkl",
      "aXcdefghijkl",
      "abcdefghijkY",
      3,
      false,
    ],
    ["adjoining with margin 0 is allowed", "abcdefghijkl", "aXcdefghijkl", "aXYdefghijkl", 0, true],
    [
      "an insertion right after the peer's lines, margin 0",
      "abcdefghijkl",
      "aXcdefghijkl",
      "aXQcdefghijkl",
      0,
      false,
    ],
  ])("%s", (_name, base, peer, proposed, margin, allowed) => {
    expect(decide(base, peer, proposed, margin).allow).toBe(allowed);
  });

  it("names the peer's lines and whether the call drops them", () => {
    expect(decide("abcdefghijkl", "aXXdefghijkl", "abcdefghijkl")).toEqual({
      allow: false,
      overlaps: [{ owner: "P", first: 2, last: 3, drops: true }],
    });
  });

  it("a hunk of an author not held against the caller never refuses", () => {
    expect(decide("abcdefghijkl", "aXcdefghijkl", "aZcdefghijkl", 3, false).allow).toBe(true);
  });
});
