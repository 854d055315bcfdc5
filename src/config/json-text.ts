import { type Node, type ParseError, printParseErrorCode } from "jsonc-parser";

/** 1-based line and column (in characters) of an offset into the text. */
export function lineCol(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split("\n").length, column: offset - before.lastIndexOf("\n") };
}

const WORDS: Record<string, string> = {
  InvalidSymbol: "an unexpected character",
  InvalidNumberFormat: "a malformed number",
  PropertyNameExpected: "a key in double quotes is expected",
  ValueExpected: "a value is expected",
  ColonExpected: "a colon is expected after the key",
  CommaExpected: "a comma is expected",
  CloseBraceExpected: "a closing } is expected",
  CloseBracketExpected: "a closing ] is expected",
  EndOfFileExpected: "there is text after the end of the object",
  InvalidCommentToken: "a malformed comment",
  UnexpectedEndOfComment: "a /* comment is not closed",
  UnexpectedEndOfString: "a string is not closed",
  UnexpectedEndOfNumber: "a number is cut off",
  InvalidUnicode: "a malformed \\u escape",
  InvalidEscapeCharacter: "a malformed escape",
  InvalidCharacter: "a character not allowed in a string",
};

/** A parse error in words, its code kept for searching: `a comma is expected (CommaExpected)`. */
export function syntaxWords(error: ParseError): string {
  const code = printParseErrorCode(error.error);
  return `${WORDS[code] ?? "a syntax error"} (${code})`;
}

/** Nothing but whitespace and comments: an empty config, not a broken one. */
export function isBlank(tree: Node | undefined, errors: readonly ParseError[], text: string): boolean {
  return (
    tree === undefined &&
    errors.length === 1 &&
    printParseErrorCode(errors[0]!.error) === "ValueExpected" &&
    errors[0]!.offset === text.length
  );
}

/** A value for a message: JSON, cut short. */
export function preview(value: unknown): string {
  if (value === undefined) return "missing";
  const json = JSON.stringify(value);
  return json.length > 40 ? `${json.slice(0, 39)}…` : json;
}

/** `agents.finalizationRoots[0].path` from its segments. */
export function keyPath(segments: readonly (string | number)[]): string {
  let out = "";
  for (const s of segments) {
    if (typeof s === "number" || s === "[]") out += typeof s === "number" ? `[${s}]` : "[]";
    else out += out ? `.${s}` : s;
  }
  return out;
}

/** Where a key starts: the property holding `node`, or the node itself (a list item). */
export function keyOffset(node: Node): number {
  return node.parent?.type === "property" ? node.parent.offset : node.offset;
}
