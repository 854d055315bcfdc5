import { describe, expect, it } from "vitest";
import { encodesTo, intendedText, readsPrevious } from "../../../src/core/safety/intended.js";

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

describe("whether a call's meaning needs the previous saved version", () => {
  it.each<[string, boolean]>([
    ["Write", false],
    ["write_file", false],
    ["Edit", true],
    ["MultiEdit", true],
    ["replace", true],
    ["StrReplace", true],
  ])("%s: %s", (name, want) => {
    expect(readsPrevious({ name })).toBe(want);
    // A Write's meaning is the same whatever the previous version: nothing is lost by not reading it.
    if (!want)
      expect(intendedText(call(name, { content: "n" }), "old")).toBe(
        intendedText(call(name, { content: "n" }), null),
      );
  });
});

describe("whether a text encodes to the bytes a file holds", () => {
  const b = (s: string) => Buffer.from(s, "utf8");
  it.each<[string, string, Buffer]>([
    ["the same ASCII", "abc", b("abc")],
    ["the same multibyte text", "ünï — 🙂", b("ünï — 🙂")],
    ["empty and empty", "", b("")],
    ["one byte different", "abc", b("abd")],
    ["the text one multibyte character longer", "abcü", b("abc")],
    ["the text one 4-byte character longer", "abc🙂", b("abc")],
    ["the text shorter", "ab", b("abc")],
    ["bytes cut inside a character", "aü", b("aü").subarray(0, 2)],
    ["a lone surrogate (encoded as U+FFFD)", "a\ud800", b("a\ufffd")],
    ["the same length, other characters", "éa", b("aé")],
  ])("%s", (_name, text, bytes) => {
    // The same answer as encoding the whole text and comparing, whatever the case.
    expect(encodesTo(text, bytes)).toBe(b(text).equals(bytes));
  });
  it("tells equal and different apart", () => {
    expect(encodesTo("ünï", b("ünï"))).toBe(true);
    expect(encodesTo("ünï", b("üni"))).toBe(false);
  });
});
