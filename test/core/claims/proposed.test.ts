import { describe, expect, it } from "vitest";
import { applyPatchBody, proposedText } from "../../../src/core/claims/proposed.js";

const NOW = "one\ntwo\nthree\ntwo\n";

describe("proposedText: what an edit tool would leave", () => {
  it.each<[string, string, unknown, string | null]>([
    ["a Write's content", "Write", { file_path: "/f", content: "new\n" }, "new\n"],
    ["Gemini's write_file", "write_file", { file_path: "/f", content: "new\n" }, "new\n"],
    [
      "an Edit of a unique string",
      "Edit",
      { old_string: "one", new_string: "ONE" },
      "ONE\ntwo\nthree\ntwo\n",
    ],
    ["an Edit of an ambiguous string: unknown", "Edit", { old_string: "two", new_string: "2" }, null],
    [
      "an Edit with replace_all",
      "Edit",
      { old_string: "two", new_string: "2", replace_all: true },
      "one\n2\nthree\n2\n",
    ],
    ["an Edit of a missing string: unknown", "Edit", { old_string: "four", new_string: "4" }, null],
    ["an Edit with an empty old string: unknown", "Edit", { old_string: "", new_string: "x" }, null],
    ["Gemini's replace", "replace", { old_string: "three", new_string: "3" }, "one\ntwo\n3\ntwo\n"],
    [
      "a MultiEdit, in order",
      "MultiEdit",
      {
        edits: [
          { old_string: "one", new_string: "uno" },
          { old_string: "three", new_string: "tres" },
        ],
      },
      "uno\ntwo\ntres\ntwo\n",
    ],
    [
      "a MultiEdit with a bad edit: unknown",
      "MultiEdit",
      { edits: [{ old_string: "nope", new_string: "x" }] },
      null,
    ],
    ["a NotebookEdit: unknown", "NotebookEdit", { notebook_path: "/n", new_source: "x" }, null],
    ["a shell command: unknown", "Bash", { command: "echo > f" }, null],
  ])("%s", (_name, tool, input, want) => {
    expect(proposedText(tool, input, NOW, null)).toBe(want);
  });

  it("an apply_patch update applies its section", () => {
    expect(proposedText("apply_patch", { command: "" }, NOW, ["@@", " one", "-two", "+TWO", " three"])).toBe(
      "one\nTWO\nthree\ntwo\n",
    );
  });
});

describe("applyPatchBody", () => {
  it.each<[string, string[], string | null]>([
    ["a chunk found after its context", ["@@", " three", "-two", "+2"], "one\ntwo\nthree\n2\n"],
    ["two chunks in order", ["@@", "-one", "+1", "@@", " three", "-two", "+2"], "1\ntwo\nthree\n2\n"],
    ["an insertion", ["@@", " one", "+one and a half"], "one\none and a half\ntwo\nthree\ntwo\n"],
    ["old lines not in the file: unknown", ["@@", "-four", "+4"], null],
    ["a line with no tag: unknown", ["@@", "?what"], null],
  ])("%s", (_name, body, want) => {
    expect(applyPatchBody(NOW, body)).toBe(want);
  });
});
