import { describe, expect, it } from "vitest";
import { ENTER, frameBytes, isQuitKey, LEAVE } from "../../src/watch/ansi.js";
import { clip, clipLeft, padTo, sanitize, textWidth } from "../../src/watch/text.js";

describe("cell arithmetic", () => {
  it.each([
    ["abc", 3],
    ["", 0],
    ["修复", 4],
    ["e\u0301", 1],
    ["a😀b", 4],
    // What the hand tables had wrong (issue 39): emoji outside their ranges, ZWJ sequences, flags.
    ["✅ done", 7],
    ["🚀", 2],
    ["👨‍👩‍👧", 2],
    ["🇫🇷", 2],
    ["👍🏽", 2],
    ["ｶﾀｶﾅ", 4],
  ])("textWidth(%j) = %d", (text, width) => {
    expect(textWidth(text)).toBe(width);
  });

  it.each([
    ["hello world", 20, "hello world"],
    ["hello world", 11, "hello world"],
    ["hello world", 6, "hello~"],
    ["hello", 1, "~"],
    ["hello", 0, ""],
    ["修复解析器", 5, "修复~"],
    ["a🇫🇷b🇩🇪", 4, "a🇫🇷~"],
    ["👨‍👩‍👧👨‍👩‍👧", 3, "👨‍👩‍👧~"],
    ["e\u0301e\u0301e\u0301", 2, "e\u0301~"],
  ])("clip(%j, %d) = %j", (text, width, out) => {
    expect(clip(text, width)).toBe(out);
    expect(textWidth(clip(text, width))).toBeLessThanOrEqual(width);
  });

  it.each([
    ["src/deep/file.ts", 30, "src/deep/file.ts"],
    ["src/deep/file.ts", 10, "~p/file.ts"],
    ["src/deep/file.ts", 1, "~"],
    ["🇫🇷/🇩🇪.md", 6, "~🇩🇪.md"],
  ])("clipLeft(%j, %d) = %j", (text, width, out) => {
    expect(clipLeft(text, width)).toBe(out);
  });

  it("pads to an exact width on either side", () => {
    expect(padTo("ab", 4)).toBe("ab  ");
    expect(padTo("ab", 4, "right")).toBe("  ab");
    expect(padTo("abcdef", 4)).toBe("abc~");
    expect(padTo("修", 3)).toBe("修 ");
  });

  it("turns control characters into harmless text on one line", () => {
    expect(sanitize("a\tb\r\nc")).toBe("a b c");
    expect(sanitize("x\x1b[2Jy\x07\x9bz")).toBe("x?[2Jy??z");
  });
});

describe("terminal bytes", () => {
  it("enters and leaves the alternate screen, hiding and showing the cursor", () => {
    expect(ENTER).toContain("\x1b[?1049h");
    expect(ENTER).toContain("\x1b[?25l");
    expect(LEAVE).toContain("\x1b[?1049l");
    expect(LEAVE).toContain("\x1b[?25h");
  });

  it("paints a first frame in full, then only the lines that changed", () => {
    expect(frameBytes(null, ["a", "b"])).toBe("\x1b[H\x1b[2J\x1b[1;1Ha\x1b[2;1Hb");
    expect(frameBytes(["a", "b"], ["a", "c"])).toBe("\x1b[2;1H\x1b[2Kc");
    expect(frameBytes(["a", "b"], ["a", "b"])).toBe("");
    expect(frameBytes(["a", "b", "c"], ["a"])).toBe("\x1b[2;1H\x1b[J");
  });

  it.each([
    ["q", true],
    ["Q", true],
    ["\x03", true],
    ["\x04", true],
    ["x", false],
    ["\x1b[A", false],
    ["\x1bOQ", false],
    ["qq", true],
  ])("isQuitKey(%j) = %s", (data, quits) => {
    expect(isQuitKey(data)).toBe(quits);
  });
});
