import { describe, expect, it } from "vitest";
import {
  type ClaimRef,
  listedAsClaim,
  type SessionRef,
  staleHolders,
} from "../../../src/core/claims/gone-verdict.js";
import type { LeftItem } from "../../../src/core/claims/left-work.js";

const ROOT = "/r";
const sess = (id: string, live: boolean, ended = false): SessionRef => ({ id, live, ended });
const claim = (session: string, path: string, worktree = ROOT): ClaimRef => ({ session, worktree, path });
const leftOf = (session: string, path: string): LeftItem => ({
  path,
  hold: "held",
  owner: { id: session, name: session, client: "qwen-code", task: null, live: false, ended: false, at: 0 },
});

describe("one verdict per file of a gone session", () => {
  const cases: [string, SessionRef[], ClaimRef[], LeftItem[], [string, number][]][] = [
    [
      "a gone session's claim on a clean file is a stale claim",
      [sess("g", false)],
      [claim("g", "a")],
      [],
      [["g", 1]],
    ],
    [
      "a gone session's claim on its dirty file is left work only",
      [sess("g", false)],
      [claim("g", "a")],
      [leftOf("g", "a")],
      [],
    ],
    [
      "only the claims that are not left work are counted",
      [sess("g", false)],
      [claim("g", "a"), claim("g", "b"), claim("g", "c")],
      [leftOf("g", "b")],
      [["g", 2]],
    ],
    [
      "a file another gone session left counts as left work for every gone holder",
      [sess("g", false), sess("h", false)],
      [claim("g", "a")],
      [leftOf("h", "a")],
      [],
    ],
    [
      "the same key in another worktree is another file",
      [sess("g", false)],
      [claim("g", "a", "/r/wt")],
      [leftOf("g", "a")],
      [["g", 1]],
    ],
    ["a live session is never stale", [sess("l", true)], [claim("l", "a")], [], []],
    [
      "an ended session is not stale (its claims were released)",
      [sess("e", false, true)],
      [claim("e", "a")],
      [],
      [],
    ],
    ["a gone session holding nothing is not listed", [sess("g", false)], [], [], []],
  ];
  it.each(cases)("%s", (_what, sessions, claims, left, want) => {
    expect(staleHolders(sessions, claims, left, ROOT).map((h) => [h.session.id, h.claims])).toEqual(want);
  });

  const listed: [string, ClaimRef, boolean, LeftItem[], boolean][] = [
    ["a live holder's claim is listed, left work or not", claim("l", "a"), true, [leftOf("g", "a")], true],
    ["a gone holder's claim on left work is not", claim("g", "a"), false, [leftOf("g", "a")], false],
    ["a gone holder's claim elsewhere is", claim("g", "b"), false, [leftOf("g", "a")], true],
    ["a claim in another worktree is", claim("g", "a", "/r/wt"), false, [leftOf("g", "a")], true],
  ];
  it.each(listed)("%s", (_what, c, live, left, want) => {
    expect(listedAsClaim(c, live, left, ROOT)).toBe(want);
  });
});
