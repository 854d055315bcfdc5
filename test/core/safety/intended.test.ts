import { describe, expect, it } from "vitest";
import { intendedText } from "../../../src/core/safety/intended.js";

const call = (name: string, input: unknown) => ({ name, input });

describe("the text a file tool call meant to leave (issue 37.1)", () => {
  it.each<[string, { name: string; input: unknown }, string | null, string | null]>([
    ["a Write is its payload", call("Write", { file_path: "f", content: "new\n" }), "old\n", "new\n"],
    ["Gemini's write_file too", call("write_file", { file_path: "f", content: "g" }), null, "g"],
    [
      "an Edit applies to the previous version",
      call("Edit", { old_string: "b", new_string: "B" }),
      "abc",
      "aBc",
    ],
    [
      "replace_all replaces each",
      call("Edit", { old_string: "a", new_string: "x", replace_all: true }),
      "aba",
      "xbx",
    ],
    ["an ambiguous edit tells nothing", call("Edit", { old_string: "a", new_string: "x" }), "aba", null],
    [
      "old text the version lacks tells nothing",
      call("Edit", { old_string: "z", new_string: "x" }),
      "aba",
      null,
    ],
    [
      "an Edit without a previous version tells nothing",
      call("Edit", { old_string: "a", new_string: "x" }),
      null,
      null,
    ],
    ["an Edit creating a file", call("Edit", { old_string: "", new_string: "hi" }), null, "hi"],
    [
      "MultiEdit applies in order",
      call("MultiEdit", {
        edits: [
          { old_string: "a", new_string: "b" },
          { old_string: "bc", new_string: "X" },
        ],
      }),
      "ac",
      "X",
    ],
    [
      "Gemini's replace",
      call("replace", { old_string: "1", new_string: "2", expected_replacements: 2 }),
      "11",
      "22",
    ],
    ["another tool tells nothing", call("NotebookEdit", { new_source: "x" }), "a", null],
    ["a malformed input tells nothing", call("Write", { content: 3 }), "a", null],
  ])("%s", (_name, tool, previous, want) => {
    expect(intendedText(tool, previous)).toBe(want);
  });
});
