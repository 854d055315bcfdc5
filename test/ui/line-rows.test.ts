import { describe, expect, it } from "vitest";
import { attribute, type OwnedHunk } from "../../src/core/lines/layout.js";
import { authorText, lineFiles, type UiLineFile } from "../../src/core/ui/line-rows.js";

/** Issue 40 item 1: the board shows each shared file's hunks and who wrote them. */

const L = (s: string): string[] => (s === "" ? [] : s.split("").map((c) => `${c}\n`));
const SESSIONS: Record<string, { name: string; client: string }> = {
  s1: { name: "amber-fox", client: "claude-code" },
  s2: { name: "blue-owl", client: "codex" },
};
const lookup = (id: string) => SESSIONS[id] ?? null;

/** Writes from one base, each with its author (null: no hook saw it). */
function hunks(base: string, steps: [string, string | null][]): OwnedHunk[] {
  let previous = L(base);
  let out: OwnedHunk[] = [];
  for (const [text, author] of steps) {
    out = attribute(L(base), previous, out, L(text), author);
    previous = L(text);
  }
  return out;
}

describe("the board's rows for a file shared by lines", () => {
  it.each<[string, [string, string | null][], [string, number, number, string][]]>([
    ["one session's line", [["aXcdefghij", "s1"]], [["line 2", 1, 1, "amber-fox (claude-code)"]]],
    [
      "two sessions far apart, each its own",
      [
        ["aXcdefghij", "s1"],
        ["aXcdefghYZ", "s2"],
      ],
      [
        ["line 2", 1, 1, "amber-fox (claude-code)"],
        ["lines 9–10", 2, 2, "blue-owl (codex)"],
      ],
    ],
    [
      "lines no hook announced are another writer's",
      [["abcQQdefghij", null]],
      [["lines 4–5", 2, 0, "another writer"]],
    ],
    [
      "a hunk two wrote names both",
      [
        ["aXXdefghij", "s1"],
        ["aXYdefghij", null],
      ],
      [["lines 2–3", 2, 2, "amber-fox (claude-code), another writer"]],
    ],
    [
      "a deletion sits before the line after it",
      [["abcdefgj", "s2"]],
      [["before line 8", 0, 2, "blue-owl (codex)"]],
    ],
    ["a session the store forgot shows its id", [["aXcdefghij", "gone-id"]], [["line 2", 1, 1, "gone-id"]]],
  ])("%s", (_name, steps, want) => {
    const [file] = lineFiles([{ path: "src/a.ts", hunks: hunks("abcdefghij", steps) }], lookup);
    expect(file!.path).toBe("src/a.ts");
    expect(
      file!.hunks.map((h) => [h.where, h.added, h.removed, h.authors.map(authorText).join(", ")]),
    ).toEqual(want);
  });

  it("lists files by path and leaves out a file with no hunk left", () => {
    const files: UiLineFile[] = lineFiles(
      [
        { path: "z.ts", hunks: hunks("abc", [["aXc", "s1"]]) },
        { path: "clean.ts", hunks: [] },
        { path: "a.ts", hunks: hunks("abc", [["abX", "s2"]]) },
      ],
      lookup,
    );
    expect(files.map((f) => f.path)).toEqual(["a.ts", "z.ts"]);
  });
});
