/**
 * Words: quote removal, and the cases where a word's value is only known at run
 * time (expansions, globs, brace lists, `~user`).
 */
import type { ShDblQuoted, ShLit, ShNode, ShSglQuoted, ShSyntax, ShWord } from "./syntax.js";

/** One argument: its static value, or null when it expands at run time. */
export type Arg = string | null;

/** A word's static value (quotes removed, escapes applied), or null when it expands. */
export function staticWord(syntax: ShSyntax, word: ShWord, home: string): Arg {
  let value = "";
  for (const [index, part] of word.Parts.entries()) {
    const piece = staticPart(syntax, part, index === 0, home);
    if (piece === null) return null;
    value += piece;
  }
  return value;
}

/** A word of literals and quotes only: nothing in it can run a command. */
export function isPlainWord(syntax: ShSyntax, word: ShWord): boolean {
  const isLit = (part: ShNode) => syntax.NodeType(part) === "Lit";
  return word.Parts.every((part) => {
    const type = syntax.NodeType(part);
    return (
      type === "Lit" ||
      type === "SglQuoted" ||
      (type === "DblQuoted" && (part as ShDblQuoted).Parts.every(isLit))
    );
  });
}

/** A heredoc delimiter written without quotes or backslashes lets the body expand. */
export function isPlainLiteral(syntax: ShSyntax, word: ShWord | null): boolean {
  if (!word) return false;
  return word.Parts.every((part) => syntax.NodeType(part) === "Lit" && !(part as ShLit).Value.includes("\\"));
}

/**
 * Heredoc text; null when it has expansions (`$x` under an unquoted delimiter).
 * Under an unquoted delimiter a backslash escapes only $ ` \ and newline.
 */
export function heredocText(syntax: ShSyntax, body: ShWord, unquotedDelimiter: boolean): Arg {
  let text = "";
  for (const part of body.Parts) {
    if (syntax.NodeType(part) !== "Lit") return null;
    text += (part as ShLit).Value;
  }
  return unquotedDelimiter
    ? text.replace(/\\([$`\\\n])/g, (_m, ch: string) => (ch === "\n" ? "" : ch))
    : text;
}

function staticPart(syntax: ShSyntax, part: ShNode, first: boolean, home: string): Arg {
  switch (syntax.NodeType(part)) {
    case "Lit":
      return unquotedLiteral((part as ShLit).Value, first, home);
    case "SglQuoted": {
      const quoted = part as ShSglQuoted;
      return quoted.Dollar ? ansiCString(quoted.Value) : quoted.Value;
    }
    case "DblQuoted":
      return doubleQuoted(syntax, part as ShDblQuoted);
    default:
      return null; // parameter, command or arithmetic expansion, extglob …
  }
}

function unquotedLiteral(raw: string, first: boolean, home: string): Arg {
  if (hasGlobOrBrace(raw)) return null;
  let value = raw;
  if (first && raw.startsWith("~")) {
    const slash = raw.indexOf("/");
    const user = slash === -1 ? raw.slice(1) : raw.slice(1, slash);
    if (user !== "") return null; // ~user: another account's home
    value = home + (slash === -1 ? "" : raw.slice(slash));
  }
  return value.replace(/\\(\n|.)/gs, (_m, ch: string) => (ch === "\n" ? "" : ch));
}

/** Unescaped glob characters or brace expansion: the word becomes a list of names. */
function hasGlobOrBrace(raw: string): boolean {
  let braceOpen = -1;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    if (ch === "\\") {
      i++;
    } else if (ch === "*" || ch === "?" || (ch === "[" && raw.includes("]", i + 1))) {
      return true;
    } else if (ch === "{") {
      braceOpen = i;
    } else if (ch === "}" && braceOpen !== -1) {
      const inner = raw.slice(braceOpen + 1, i);
      if (inner.includes(",") || inner.includes("..")) return true;
    }
  }
  return false;
}

function doubleQuoted(syntax: ShSyntax, quoted: ShDblQuoted): Arg {
  let value = "";
  for (const part of quoted.Parts) {
    if (syntax.NodeType(part) !== "Lit") return null;
    // Inside double quotes a backslash only escapes $ ` " \ and newline.
    value += (part as ShLit).Value.replace(/\\([$`"\\\n])/g, (_m, ch: string) => (ch === "\n" ? "" : ch));
  }
  return value;
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
