import { describe, expect, it } from "vitest";
import { type CoverLimits, coverPaths, covers } from "../../../src/core/finalization/pathspec-cover.js";

const few: CoverLimits = { count: 3, bytes: 1024 };

describe("coverPaths", () => {
  it.each<[string, string[], CoverLimits, string[] | null]>([
    ["keeps a few paths as they are, sorted", ["b.txt", "a/x.txt"], few, ["a/x.txt", "b.txt"]],
    ["drops a path that lies below another", ["a", "a/x.txt", "a/b/c"], few, ["a"]],
    ["does not take a sibling with a common prefix for a child", ["a", "ab/x"], few, ["a", "ab/x"]],
    [
      "replaces files by their directories once there are too many",
      ["d1/a", "d1/b", "d2/a", "d2/b"],
      few,
      ["d1", "d2"],
    ],
    [
      "climbs the deepest paths first, leaving shallow ones alone",
      ["top.txt", "a/b/c/1", "a/b/c/2", "a/b/d/1", "a/b/d/2"],
      few,
      ["a/b/c", "a/b/d", "top.txt"],
    ],
    ["climbs again while still too many", ["a/b/1", "a/c/1", "a/d/1", "a/e/1"], few, ["a"]],
    ["gives the whole tree once only the top covers them", ["a", "b", "c", "d"], few, null],
    ["gives the whole tree when the top itself is asked about", [".", "a"], few, null],
    ["counts bytes too", ["d/aaaaaaaa", "d/bbbbbbbb"], { count: 10, bytes: 30 }, ["d"]],
    [
      "keeps odd characters as they are",
      ["new\nline/x", "new\nline/y", "sp ace/:(glob)*", "sp ace/z"],
      { count: 2, bytes: 1024 },
      ["new\nline", "sp ace"],
    ],
    ["nothing asked, nothing to cover", [], few, []],
  ])("%s", (_name, paths, limits, expected) => {
    expect(coverPaths(paths, limits)).toEqual(expected);
  });

  it("covers 1,000 files in ten directories with the ten directories", () => {
    const files = Array.from({ length: 1000 }, (_, i) => `dir ${i % 10}/file-${i}.txt`);
    expect(coverPaths(files)).toEqual(Array.from({ length: 10 }, (_, i) => `dir ${i}`));
  });
});

describe("covers", () => {
  it.each<[string, string[] | null, string[], boolean]>([
    ["a path at a pathspec", ["a"], ["a"], true],
    ["a path below a pathspec", ["a"], ["a/b/c"], true],
    ["a path beside every pathspec", ["a"], ["ab/c"], false],
    ["a path above a pathspec (a submodule's own path)", ["sub/a.txt"], ["sub"], false],
    ["one uncovered path among covered ones", ["a", "b"], ["a/x", "b/y", "c"], false],
    ["the top itself, by pathspecs", ["a"], ["."], false],
    ["anything, by the whole tree", null, [".", "x/y"], true],
    ["nothing asked", ["a"], [], true],
  ])("%s", (_name, cover, paths, expected) => {
    expect(covers(cover, paths)).toBe(expected);
  });
});
