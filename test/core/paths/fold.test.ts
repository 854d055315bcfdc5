import { describe, expect, it } from "vitest";
import { coreFlag, coreSetting } from "../../../src/core/git/hooks-path.js";
import { type FoldRule, foldPath, NO_FOLD } from "../../../src/core/paths/fold.js";

const CASE: FoldRule = { caseless: true, normalizes: false };
const NFC: FoldRule = { caseless: false, normalizes: true };
const BOTH: FoldRule = { caseless: true, normalizes: true };
const decomposed = "e\u0301"; // e + combining acute
const composed = "\u00e9"; // é

describe("foldPath: the key two names share when one filesystem takes them for one file", () => {
  it.each([
    // [a, b, rule, same file?]
    ["F.TXT", "f.txt", NO_FOLD, false],
    ["F.TXT", "f.txt", CASE, true],
    ["F.TXT", "f.txt", NFC, false],
    ["F.TXT", "f.txt", BOTH, true],
    ["Src/Main.TS", "src/main.ts", CASE, true],
    ["src/a.ts", "src/b.ts", BOTH, false],
    // Unicode case: Greek sigma in all three forms, Cyrillic, Kelvin sign, long s.
    ["ΣΊΣΥΦΟΣ.md", "σίσυφος.md", CASE, true],
    ["σ", "ς", CASE, true],
    ["ПРИВЕТ", "привет", CASE, true],
    ["\u212a.txt", "k.txt", CASE, true],
    ["\u017f.txt", "s.txt", CASE, true],
    ["ẞ", "ß", CASE, true],
    // One-to-many mappings are not applied, as APFS and NTFS do not: ß is not "ss", İ is not i.
    ["ß", "ss", CASE, false],
    ["STRASSE", "straße", CASE, false],
    ["İ", "i", CASE, false],
    ["İ", "i\u0307", CASE, false],
    // Turkic mappings are not applied: dotless ı is neither i nor I.
    ["ı", "i", CASE, false],
    ["ı", "I", CASE, false],
    // Composed and decomposed: one name where the volume normalises, two where it does not.
    [composed, decomposed, NO_FOLD, false],
    [composed, decomposed, NFC, true],
    [composed, decomposed, CASE, false],
    [`${composed}.txt`, `E\u0301.TXT`, BOTH, true],
    [`caf${composed}/x`, `caf${decomposed}/x`, NFC, true],
    // Outside the Basic Multilingual Plane: Deseret letters fold, emoji stay whole.
    ["\u{10400}", "\u{10428}", CASE, true],
    ["😀.txt", "😀.TXT", CASE, true],
  ])("%s and %s under %o: same file %s", (a, b, rule, same) => {
    expect(foldPath(a, rule) === foldPath(b, rule)).toBe(same);
  });

  it.each([
    ["F.TXT", NO_FOLD, "F.TXT"],
    ["F.TXT", CASE, "f.txt"],
    [decomposed, NFC, composed],
    [`${decomposed}X`, CASE, `${decomposed}x`],
    ["İ", BOTH, "İ"],
  ])("folds %s under %o to %s", (path, rule, key) => {
    expect(foldPath(path, rule)).toBe(key);
  });
});

describe("core settings read from a git config file's text", () => {
  it.each([
    ["", "ignorecase", false],
    ["[core]\n\tignorecase = true\n", "ignorecase", true],
    ["[core]\n\tignoreCase = True\n", "ignorecase", true],
    ["[CORE]\n\tignorecase = yes\n", "ignorecase", true],
    ["[core]\n\tignorecase = on\n\tprecomposeunicode = 1\n", "precomposeunicode", true],
    ["[core]\n\tignorecase\n", "ignorecase", true],
    ["[core]\n\tignorecase = false\n", "ignorecase", false],
    ["[core]\n\tignorecase = true\n\tignorecase = false\n", "ignorecase", false],
    ['[core "x"]\n\tignorecase = true\n', "ignorecase", false],
    ["[user]\n\tignorecase = true\n", "ignorecase", false],
    ["[core]\n\tignorecasex = true\n", "ignorecase", false],
    ["[core] ignorecase = true # a comment\n", "ignorecase", true],
  ])("%j: core.%s is %s", (text, key, on) => {
    expect(coreFlag(text, key)).toBe(on);
  });

  it("tells a bare key from an unset one and a value", () => {
    expect(coreSetting("[core]\n\tbare\n", "bare")).toBe(true);
    expect(coreSetting("[core]\n", "bare")).toBeNull();
    expect(coreSetting('[core]\n\tv = "a b"\n', "v")).toBe("a b");
  });
});
