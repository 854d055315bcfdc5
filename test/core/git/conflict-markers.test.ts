import { describe, expect, it } from "vitest";
import {
  ConflictMarkerScanner,
  conflictMarkerPaths,
  markerKind,
  newSidePath,
} from "../../../src/core/git/conflict-markers.js";

/** One file section of a `git diff` whose hunk adds `added` lines (and keeps one context line). */
function section(path: string, added: string[], plus = `+++ b/${path}`): string {
  return [
    `diff --git a/${path} b/${path}`,
    "index 1111111..2222222 100644",
    `--- a/${path}`,
    plus,
    `@@ -1 +1,${added.length + 1} @@`,
    " context",
    ...added.map((l) => `+${l}`),
    "",
  ].join("\n");
}

const CONFLICT = ["<<<<<<< HEAD", "ours", "=======", "theirs", ">>>>>>> 1a2b3c4 (their change)"];

describe("conflict markers in a patch's added lines", () => {
  const cases: { name: string; patch: string; flagged: string[] }[] = [
    { name: "a whole conflict block flags its file", patch: section("a.txt", CONFLICT), flagged: ["a.txt"] },
    { name: "an opening marker alone flags", patch: section("a.txt", ["<<<<<<< HEAD"]), flagged: ["a.txt"] },
    { name: "a closing marker alone flags", patch: section("a.txt", [">>>>>>> side"]), flagged: ["a.txt"] },
    { name: "a diff3 base marker flags", patch: section("a.txt", ["||||||| base"]), flagged: ["a.txt"] },
    { name: "a bare marker without a label flags", patch: section("a.txt", ["<<<<<<<"]), flagged: ["a.txt"] },
    {
      name: "a CRLF file's markers flag",
      patch: section("w.txt", ["<<<<<<< HEAD\r", "=======\r", ">>>>>>> x\r"]),
      flagged: ["w.txt"],
    },
    {
      name: "======= alone is a heading underline, not a conflict",
      patch: section("README.md", ["Title", "======="]),
      flagged: [],
    },
    { name: "eight < are not a marker", patch: section("a.txt", ["<<<<<<<< x"]), flagged: [] },
    { name: "a marker not at line start is text", patch: section("a.txt", [" <<<<<<< HEAD"]), flagged: [] },
    { name: "a marker glued to text is text", patch: section("a.txt", ["<<<<<<<HEAD"]), flagged: [] },
    {
      name: "removed and context marker lines do not flag",
      patch: section("a.txt", ["fine"]).replace(" context", "-<<<<<<< HEAD\n >>>>>>> x"),
      flagged: [],
    },
    {
      name: "only the file holding markers is named",
      patch: section("clean.txt", ["ok"]) + section("dir/bad.txt", CONFLICT) + section("z.txt", ["======="]),
      flagged: ["dir/bad.txt"],
    },
    {
      name: "a C-quoted path is decoded",
      patch: section("x", CONFLICT, '+++ "b/caf\\303\\251 \\"q\\".txt"'),
      flagged: ['café "q".txt'],
    },
    {
      name: "a name with a space ends at git's tab",
      patch: section("x", CONFLICT, "+++ b/with space.txt\t"),
      flagged: ["with space.txt"],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(conflictMarkerPaths(c.patch)).toEqual(c.flagged);
    });
  }

  it("finds markers split across chunks at every byte boundary", () => {
    const patch = Buffer.from(section("a.txt", ["x"]) + section("b c.txt", CONFLICT, "+++ b/b c.txt\t"));
    for (let cut = 1; cut < patch.length; cut++) {
      const s = new ConflictMarkerScanner();
      s.push(patch.subarray(0, cut));
      s.push(patch.subarray(cut));
      expect(s.end(), `cut at ${cut}`).toEqual(["b c.txt"]);
    }
  });

  it("skips an over-long line without losing the file after it", () => {
    const long = section("big.txt", ["y".repeat(200_000)]);
    expect(conflictMarkerPaths(long + section("a.txt", CONFLICT))).toEqual(["a.txt"]);
  });
});

describe("one added line", () => {
  const kinds: [string, ReturnType<typeof markerKind>][] = [
    ["<<<<<<< HEAD", "marker"],
    [">>>>>>>", "marker"],
    ["=======", "separator"],
    ["======= x", null],
    ["========", null],
    ["<<<<<<", null],
    ["plain", null],
  ];
  for (const [line, kind] of kinds) {
    it(`reads ${JSON.stringify(line)} as ${kind ?? "text"}`, () => {
      const b = Buffer.from(line);
      expect(markerKind(b, 0, b.length)).toBe(kind);
    });
  }

  it("reads /dev/null as no path and strips b/", () => {
    expect(newSidePath("/dev/null")).toBeNull();
    expect(newSidePath("b/src/a.ts")).toBe("src/a.ts");
  });
});
