import { describe, expect, it } from "vitest";
import { blameRows, blameText } from "../../../src/core/lines/blame.js";
import { attribute } from "../../../src/core/lines/layout.js";

const L = (s: string): string[] => (s === "" ? [] : s.split("").map((c) => `${c}\n`));
const author = (id: string) => ({ session: id, name: `agent-${id}`, client: id === "?" ? null : "codex" });

describe("tandem blame's rows and text", () => {
  it("one row per hunk: where it is now, its size, its authors", () => {
    const a = attribute(L("abcdefghij"), L("abcdefghij"), [], L("aXXcdefghij"), "a");
    const both = attribute(L("abcdefghij"), L("aXXcdefghij"), a, L("aXXcdefgj"), "?");
    const rows = blameRows(both, author);
    expect(rows.map((r) => [r.first, r.last, r.added, r.removed, r.authors.map((x) => x.session)])).toEqual([
      [2, 3, 2, 1, ["a"]],
      [9, 8, 0, 2, ["?"]],
    ]);
    expect(blameText("f.txt", rows)).toBe(
      "f.txt: 2 uncommitted hunks\n  lines 2–3  +2 -1  agent-a (codex)\n  before line 9  +0 -2  agent-?\n",
    );
  });

  it("a clean file says so", () => {
    expect(blameText("f.txt", [])).toBe("f.txt: no uncommitted changes.\n");
  });
});
