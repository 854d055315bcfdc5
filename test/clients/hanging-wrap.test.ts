import { describe, expect, it } from "vitest";
import { hangingWrap, unwrapHanging } from "../../src/clients/codex/hanging-wrap.js";

describe("wrapping Codex's deny reasons with a hanging indent", () => {
  it.each([
    ["a short line", "held by agent-a", 20, "held by agent-a"],
    ["a line exactly at the width", "aaaa bbbb", 9, "aaaa bbbb"],
    [
      "a long line, continued under a two-space indent",
      "one two three four five",
      9,
      "one two\n  three\n  four\n  five",
    ],
    ["each line on its own", "a b c d\nshort", 5, "a b c\n  d\nshort"],
    [
      "a word longer than the width kept whole",
      "see /a/very/long/path/file.ts now",
      10,
      "see\n  /a/very/long/path/file.ts\n  now",
    ],
  ])("%s", (_name, text, width, want) => {
    expect(hangingWrap(text, width)).toBe(want);
  });

  it("leaves no line of a real refusal past the width, and unwraps to the original", () => {
    const reason = [
      "Tandem refused this edit; nothing was changed and nothing was claimed.",
      "These files are being edited by another live agent session:",
      "- f.txt: held by agent-snipe (claude-code, no task declared, last seen 14s ago)",
      "What to do: work on other files, or wait until agent-snipe commits (claims are released on commit), or coordinate with the user. Do not work around this by editing the file another way",
    ].join("\n");
    const wrapped = hangingWrap(reason);
    for (const line of wrapped.split("\n")) expect(line.length).toBeLessThanOrEqual(76);
    expect(wrapped.split("\n").length).toBeGreaterThan(4);
    expect(unwrapHanging(wrapped)).toBe(reason);
  });
});
