import { describe, expect, it } from "vitest";
import { applyJsonOps, hasComments, parseJson } from "../../src/wiring/json-edit.js";

describe("style-preserving JSON edits", () => {
  it.each([
    ["the last of two compact items", "[1, 2]", [1], "[1]"],
    ["a middle compact item", "[1, 2, 3]", [1], "[1, 3]"],
    ["the only item", "[ 1 ]", [0], "[]"],
    ["a last item on its own line", "[\n  1,\n  2\n]", [1], "[\n  1\n]"],
    ["a middle item on its own line", "[\n  1,\n  2,\n  3\n]", [1], "[\n  1,\n  3\n]"],
    ["the first property", '{"a": 1, "b": 2}', ["a"], '{"b": 2}'],
    ["a missing property (no-op)", '{"a": 1}', ["z"], '{"a": 1}'],
  ])("removes %s", (_name, text, path, expected) => {
    expect(applyJsonOps(text, [{ op: "remove", path }])).toBe(expected);
  });

  it("appends in the style of the neighbours: a line of its own, or inline", () => {
    const pretty = '{\n    "a": [\n        { "x": 1 }\n    ]\n}\n';
    expect(applyJsonOps(pretty, [{ op: "append", path: ["a"], value: { y: [2] } }])).toBe(
      '{\n    "a": [\n        { "x": 1 },\n        {\n            "y": [\n                2\n            ]\n        }\n    ]\n}\n',
    );
    expect(applyJsonOps('{"a": [1]}', [{ op: "append", path: ["a"], value: 2 }])).toBe('{"a": [1, 2]}');
  });

  it("lays a long value added to a one-line object over lines instead of one long line", () => {
    const hook = {
      matcher: "*",
      hooks: [{ type: "command", command: `tandem hook claude-code ${"x".repeat(60)}` }],
    };
    const text = '{ "hooks": { "Stop": [] } }\n';
    const out = applyJsonOps(text, [
      { op: "set", path: ["hooks", "PreToolUse"], value: [hook] },
      { op: "set", path: ["hooks", "PostToolUse"], value: [hook] },
    ]);
    expect(JSON.parse(out)).toEqual({ hooks: { Stop: [], PreToolUse: [hook], PostToolUse: [hook] } });
    for (const line of out.split("\n")) expect(line.length).toBeLessThanOrEqual(120);
    // A short value still goes inline, as the neighbours are.
    expect(applyJsonOps('{ "a": 1 }', [{ op: "set", path: ["b"], value: [2] }])).toBe(
      '{ "a": 1, "b": [ 2 ] }',
    );
  });

  it("keeps a trailing comma valid when appending after it", () => {
    const out = applyJsonOps("[\n  1,\n]", [{ op: "append", path: [], value: 2 }]);
    expect(out).toBe("[\n  1,\n  2,\n]");
    expect(parseJson("x", out)).toEqual({ ok: true, value: [1, 2] });
  });

  it("creates missing parents and fills empty containers", () => {
    expect(applyJsonOps("{}", [{ op: "append", path: ["hooks", "Stop"], value: 1 }])).toBe(
      '{\n  "hooks": {\n    "Stop": [\n      1\n    ]\n  }\n}',
    );
    expect(applyJsonOps('{\n  "a": []\n}', [{ op: "append", path: ["a"], value: 1 }])).toBe(
      '{\n  "a": [\n    1\n  ]\n}',
    );
  });

  it("replaces a value in place and leaves comments and other bytes alone", () => {
    const text = '{\n  // keep me\n  "a": { "b": 1 }, /* and me */\n  "c": [\n    1\n  ]\n}\n';
    const out = applyJsonOps(text, [
      { op: "set", path: ["a", "b"], value: 2 },
      { op: "set", path: ["c", 0], value: { d: true } },
    ]);
    expect(out).toBe(
      '{\n  // keep me\n  "a": { "b": 2 }, /* and me */\n  "c": [\n    { "d": true }\n  ]\n}\n',
    );
    expect(hasComments(out)).toBe(true);
  });

  it("keeps CRLF line endings", () => {
    const out = applyJsonOps('{\r\n  "a": 1\r\n}\r\n', [{ op: "set", path: ["b"], value: [1] }]);
    expect(out).toBe('{\r\n  "a": 1,\r\n  "b": [\r\n    1\r\n  ]\r\n}\r\n');
  });

  it("reports the first syntax error with line and column", () => {
    expect(parseJson(".claude/settings.json", '{\n  "a": 1\n  "b": 2\n}')).toEqual({
      ok: false,
      reason: ".claude/settings.json:3:3: CommaExpected",
    });
  });
});
