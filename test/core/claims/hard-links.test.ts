import { describe, expect, it } from "vitest";
import {
  type ClaimTarget,
  decideClaims,
  type HeldClaim,
  type Holder,
} from "../../../src/core/claims/decide.js";
import { type FileId, type HeldFile, otherNames } from "../../../src/core/claims/hard-links.js";
import { denialMessage } from "../../../src/core/claims/messages.js";

const NOW = 1_000_000_000;
const WT = "/repo";
const target = (path: string, worktree = WT): ClaimTarget => ({
  raw: path,
  worktree,
  path,
  disposition: "git",
  root: worktree,
});
const file = (ino: number, dev = 1): FileId => ({ dev, ino });
const heldFile = (path: string, id: FileId | null, worktree = WT): HeldFile => ({
  key: { worktree, path },
  id,
});
const A: Holder = {
  id: "a",
  name: "agent-a",
  client: "claude-code",
  task: "fix the parser",
  lastSeen: NOW - 3000,
  live: true,
  group: "a",
};
const held = (path: string, holder: Holder = A): HeldClaim => ({
  worktree: WT,
  path,
  holder,
  acquiredAt: NOW - 1000,
  clean: false,
});

describe("the other names of a file that has hard links", () => {
  const cases: [string, HeldFile[], { path: string; worktree: string; linkOf: string }[]][] = [
    [
      "a held path that is the same file",
      [heldFile("f.txt", file(7))],
      [{ path: "f.txt", worktree: WT, linkOf: "h" }],
    ],
    ["a held path that is another file", [heldFile("g.txt", file(8))], []],
    ["the same inode on another device", [heldFile("f.txt", file(7, 2))], []],
    ["the named path itself", [heldFile("h", file(7))], []],
    ["a held path that is no regular file (gone, a directory)", [heldFile("src", null)], []],
    [
      "the same file held in another worktree",
      [heldFile("f.txt", file(7), "/wt")],
      [{ path: "f.txt", worktree: "/wt", linkOf: "h" }],
    ],
    [
      "two other names",
      [heldFile("f.txt", file(7)), heldFile("g.txt", file(8)), heldFile("k.txt", file(7))],
      [
        { path: "f.txt", worktree: WT, linkOf: "h" },
        { path: "k.txt", worktree: WT, linkOf: "h" },
      ],
    ],
  ];
  it.each(cases)("%s", (_what, heldFiles, want) => {
    const got = otherNames([{ target: target("h"), id: file(7) }], heldFiles);
    expect(got.map((t) => ({ path: t.path, worktree: t.worktree, linkOf: t.linkOf }))).toEqual(want);
    for (const t of got) expect(t.raw).toBe("h");
  });
});

describe("a write to one name judged as a write to the others", () => {
  const alias: ClaimTarget = { ...target("f.txt"), raw: "h", linkOf: "h" };
  const request = (claims: HeldClaim[]) => ({
    caller: { id: "me", group: "me" },
    targets: [target("h"), alias],
    refused: [],
    held: claims,
    now: NOW,
  });

  it("refuses it when a live peer holds the other name, naming both names and the peer", () => {
    const d = decideClaims(request([held("f.txt")]));
    expect(d.allow).toBe(false);
    if (d.allow) return;
    expect(d.conflicts.map((c) => [c.target.raw, c.claim.path])).toEqual([["h", "f.txt"]]);
    const text = denialMessage(d, NOW);
    expect(text).toContain(
      '- h: the same file as f.txt (a hard link: writing one name writes both), held by agent-a (claude-code, task "fix the parser", last seen 3s ago)',
    );
    expect(text).toMatch(/wait until agent-a commits/);
  });

  it.each([
    ["the caller holds it", held("f.txt", { ...A, id: "me", group: "me" })],
    ["its holder is no longer live (taken over)", held("f.txt", { ...A, live: false })],
  ])("allows it when %s, and claims only the named path", (_what, claim) => {
    const d = decideClaims(request([claim]));
    expect(d.allow).toBe(true);
    if (!d.allow) return;
    expect(d.acquire.map((t) => t.path)).toEqual(["h"]);
  });
});
