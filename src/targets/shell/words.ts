/**
 * Words as the parser gives them: their pieces (literal, quoted, variable, other
 * expansion) for expand.ts, quote removal, and heredoc bodies.
 */
import type { ShDblQuoted, ShLit, ShNode, ShParamExp, ShSglQuoted, ShWord } from "./syntax.js";
import type { Tree } from "./tree.js";
import type { Arg } from "./types.js";

export type { Arg } from "./types.js";

/** One piece of a word, in the order bash expands them. */
export type Piece =
  /** Unquoted literal text as written, backslash escapes kept: brace, tilde and glob apply. */
  | { kind: "lit"; raw: string }
  /** Quoted text, taken as it is. */
  | { kind: "text"; text: string }
  /** `$NAME` or `${NAME}`; unquoted, its value is split into words and globbed. */
  | { kind: "var"; name: string; quoted: boolean }
  /**
   * Anything only known at run time (`$(…)`, `$((…))`, `${X:-y}`, `$@` …); `single`
   * when it is sure to stay one word (inside double quotes).
   */
  | { kind: "unknown"; single: boolean };

/** The pieces of a word (worked out once per word). */
export function wordPieces(tree: Tree, word: ShWord): Piece[] {
  return tree.memo(word, "pieces", () => tree.read(word, "Parts").flatMap((part) => partPieces(tree, part)));
}

/**
 * A word whose expansion runs nothing and assigns nothing (literals, quotes, plain
 * `$NAME`): the walker need not look inside it for `$(…)`.
 */
export function isPlainWord(tree: Tree, word: ShWord): boolean {
  return wordPieces(tree, word).every((piece) => piece.kind !== "unknown");
}

function partPieces(tree: Tree, part: ShNode): Piece[] {
  switch (tree.type(part)) {
    case "Lit":
      return [{ kind: "lit", raw: tree.read(part as ShLit, "Value") }];
    case "SglQuoted": {
      const value = tree.read(part as ShSglQuoted, "Value");
      return [{ kind: "text", text: tree.read(part as ShSglQuoted, "Dollar") ? ansiCString(value) : value }];
    }
    case "DblQuoted": {
      const inner = tree.read(part as ShDblQuoted, "Parts");
      return inner.length === 0 ? [{ kind: "text", text: "" }] : inner.map((p) => doubleQuotedPiece(tree, p));
    }
    case "ParamExp":
      return [paramPiece(tree, part as ShParamExp, false)];
    default:
      return [{ kind: "unknown", single: false }]; // command or arithmetic expansion, extglob …
  }
}

function doubleQuotedPiece(tree: Tree, part: ShNode): Piece {
  const type = tree.type(part);
  if (type === "ParamExp") return paramPiece(tree, part as ShParamExp, true);
  if (type !== "Lit") return { kind: "unknown", single: true };
  // Inside double quotes a backslash only escapes $ ` " \ and newline.
  const text = tree
    .read(part as ShLit, "Value")
    .replace(/\\([$`"\\\n])/g, (_m, ch: string) => (ch === "\n" ? "" : ch));
  return { kind: "text", text };
}

/** Only the plain forms are read; `${X:-y}`, `${#X}`, `${X/a/b}`, `${!X}`, `${A[0]}` are unknown. */
function paramPiece(tree: Tree, param: ShParamExp, quoted: boolean): Piece {
  const name = tree.read(param, "Param");
  const index = tree.read(param, "Index");
  const plain =
    name !== null &&
    !index &&
    (["Excl", "Length", "Width", "Slice", "Repl", "Exp", "Names"] as const).every(
      (f) => !tree.read(param, f),
    );
  const value = name === null ? "" : tree.read(name, "Value");
  // "$@" and "${A[@]}" give as many words as there are items.
  if (!plain || value === "@") return { kind: "unknown", single: quoted && value !== "@" && !index };
  return { kind: "var", name: value, quoted };
}

/** Unquoted literal text with its backslash escapes applied. */
export function unescapeLiteral(raw: string): string {
  return raw.replace(/\\(\n|.)/gs, (_m, ch: string) => (ch === "\n" ? "" : ch));
}

/** A heredoc delimiter written without quotes or backslashes lets the body expand. */
export function isPlainLiteral(tree: Tree, word: ShWord | null): boolean {
  if (!word) return false;
  return wordPieces(tree, word).every((piece) => piece.kind === "lit" && !piece.raw.includes("\\"));
}

/**
 * Heredoc text; null when it has expansions (`$x` under an unquoted delimiter).
 * Under an unquoted delimiter a backslash escapes only $ ` \ and newline.
 */
export function heredocText(tree: Tree, body: ShWord, unquotedDelimiter: boolean): Arg {
  let text = "";
  for (const piece of wordPieces(tree, body)) {
    if (piece.kind !== "lit") return null;
    text += piece.raw;
  }
  return unquotedDelimiter
    ? text.replace(/\\([$`\\\n])/g, (_m, ch: string) => (ch === "\n" ? "" : ch))
    : text;
}

const C_ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** Bash `$'…'` quoting. */
function ansiCString(raw: string): string {
  return raw.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (whole, esc: string) => {
      const kind = esc[0]!;
      if (kind === "x" || kind === "u" || kind === "U") return codePoint(Number.parseInt(esc.slice(1), 16));
      if (/[0-7]/.test(kind)) return String.fromCharCode(Number.parseInt(esc, 8) & 0xff);
      if (kind === "c" && esc.length === 2) return String.fromCharCode(esc.charCodeAt(1) & 0x1f);
      return C_ESCAPES[esc] ?? whole;
    },
  );
}

function codePoint(n: number): string {
  return n <= 0x10ffff ? String.fromCodePoint(n) : "";
}
