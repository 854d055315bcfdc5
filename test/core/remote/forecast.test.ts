import { describe, expect, it } from "vitest";
import { overlaps, readMergeTree, remoteSides, type Side } from "../../../src/core/remote/forecast.js";
import type { PresenceDoc } from "../../../src/core/remote/presence.js";

const side = (machine: string, session: string, paths: string[]): Side => ({
  machine,
  session,
  branch: "main",
  task: null,
  paths,
});

const doc = (id: string, published: number, lastSeen: number, claims: string[]): PresenceDoc => ({
  format: 1,
  checkout: { id, name: `${id}:/w` },
  published,
  base: null,
  branch: "main",
  upstream: null,
  sessions: [
    { name: `s-${id}`, client: "claude", task: null, branch: null, lastSeen, claims, dirty: ["d.ts"] },
  ],
});

describe("paths changed in more than one place", () => {
  it("lists only paths of two or more sides, a side's repeated path once", () => {
    const found = overlaps([
      side("a", "s1", ["x", "x", "y"]),
      side("b", "s2", ["x"]),
      side("c", "s3", ["z"]),
    ]);
    expect(found.map((o) => [o.path, o.sides.map((s) => s.session)])).toEqual([["x", ["s1", "s2"]]]);
  });

  it("takes remote sides from fresh documents of other checkouts only", () => {
    const now = 1_000_000;
    const fresh = { sessionMs: 60_000, documentMs: 900_000 };
    const sides = remoteSides(
      [
        doc("me", now, now, ["mine.ts"]),
        doc("live", now - 1000, now - 2000, ["a.ts"]),
        doc("old", now - 901_000, now - 901_000, ["b.ts"]),
        doc("gone", now, now - 61_000, ["c.ts"]),
        doc("ahead", now + 5_000_000, now + 5_000_000, ["e.ts"]),
      ],
      "me",
      now,
      fresh,
    );
    expect(sides.map((s) => [s.machine, s.branch, s.paths])).toEqual([
      ["live:/w", "main", ["a.ts", "d.ts"]],
      ["ahead:/w", "main", ["e.ts", "d.ts"]],
    ]);
  });
});

describe("reading git merge-tree", () => {
  it.each([
    ["a clean merge", 0 as const, "tree\0", true, []],
    [
      "conflicted files up to the messages",
      1 as const,
      "tree\0f\0g\0\0" + "1\0f\0Auto-merging\0",
      false,
      ["f", "g"],
    ],
  ])("%s", (_n, status, out, clean, files) => {
    expect(readMergeTree("main", "feat", status, out)).toEqual({
      target: "main",
      branch: "feat",
      clean,
      files,
    });
  });
});
