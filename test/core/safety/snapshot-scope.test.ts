import { describe, expect, it } from "vitest";
import {
  type CommandShape,
  type NamedFacts,
  snapshotScope,
} from "../../../src/core/safety/snapshot-scope.js";

const TOP = "/repo";
const plain: CommandShape = { opaque: false, error: false, gitCalls: 0, wiringCommands: 0 };
const facts = (over: Partial<Record<keyof NamedFacts, string[]>> = {}): NamedFacts => ({
  peerOwned: (paths) => paths.some((p) => over.peerOwned?.includes(p)),
  isDirectory: (p) => over.isDirectory?.includes(p) ?? false,
  elsewhere: (p) => over.elsewhere?.includes(p) ?? false,
  linked: (p) => over.linked?.includes(p) ?? false,
});
const file = (path: string, worktree = TOP) => ({ worktree, path });

describe("what a shell command's snapshot reads", () => {
  const cases: [string, CommandShape, ReturnType<typeof file>[], string | null, NamedFacts, unknown][] = [
    ["a read-only command: nothing named, no git", plain, [], TOP, facts(), { scope: "named", paths: [] }],
    [
      "a redirect: the named file, once, sorted",
      plain,
      [file("b.txt"), file("a.txt"), file("b.txt")],
      TOP,
      facts(),
      { scope: "named", paths: ["a.txt", "b.txt"] },
    ],
    [
      "an opaque command reads the whole tree",
      { ...plain, opaque: true },
      [],
      TOP,
      facts(),
      { scope: "tree" },
    ],
    ["a command the reader failed on", { ...plain, error: true }, [], TOP, facts(), { scope: "tree" }],
    [
      "a judged git command (commit, checkout)",
      { ...plain, gitCalls: 1 },
      [],
      TOP,
      facts(),
      { scope: "tree" },
    ],
    ["a wiring command", { ...plain, wiringCommands: 1 }, [], TOP, facts(), { scope: "tree" }],
    ["no repository top at the root", plain, [file("a.txt")], null, facts(), { scope: "tree" }],
    ["a file of another worktree", plain, [file("a.txt", "/other")], TOP, facts(), { scope: "tree" }],
    [
      "a named path that is a directory already",
      plain,
      [file("out")],
      TOP,
      facts({ isDirectory: ["out"] }),
      { scope: "tree" },
    ],
    [
      "a file inside a submodule",
      plain,
      [file("sub/x")],
      TOP,
      facts({ elsewhere: ["sub/x"] }),
      { scope: "tree" },
    ],
    [
      "a file with another name (a hard link): writing it changes a file no path names",
      plain,
      [file("a.txt"), file("h.txt")],
      TOP,
      facts({ linked: ["h.txt"] }),
      { scope: "tree" },
    ],
    [
      "a file a live peer owns: its bytes are copied first",
      plain,
      [file("a.txt"), file("p.txt")],
      TOP,
      facts({ peerOwned: ["p.txt"] }),
      { scope: "tree" },
    ],
  ];
  it.each(cases)("%s", (_name, shape, named, top, f, expected) => {
    expect(snapshotScope(shape, named, top, f)).toEqual(expected);
  });

  it("asks about peers only when the command names files", () => {
    let asked = 0;
    const counting: NamedFacts = { ...facts(), peerOwned: () => ++asked > 0 && false };
    expect(snapshotScope(plain, [], TOP, counting)).toEqual({ scope: "named", paths: [] });
    expect(asked).toBe(0);
  });
});
