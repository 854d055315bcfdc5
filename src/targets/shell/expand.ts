/**
 * Word expansion in bash's order, as far as it is static: brace expansion, `~`,
 * variables the script assigned, word splitting of unquoted values, and globs
 * against the file system. Anything only known at run time makes the word unknown.
 */
import { posix } from "node:path";
import { expandBraces, leavesBraceOpen } from "./braces.js";
import { escapeGlob, type GlobBudget, hasGlob, type ListDir, matchGlob } from "./glob.js";
import { lookupVar } from "./scope.js";
import type { ShWord } from "./syntax.js";
import type { Tree } from "./tree.js";
import type { Arg, Scope } from "./types.js";
import { type Piece, unescapeLiteral, wordPieces } from "./words.js";

/** The arguments a word gives; `exact` unless an unknown part may give several or none. */
export interface Fields {
  args: Arg[];
  exact: boolean;
}

const UNKNOWN: Fields = { args: [null], exact: false };
const UNKNOWN_ONE: Fields = { args: [null], exact: true };

export interface ExpandOptions {
  home: string;
  /** The tool call's absolute directory; without it a glob stays unknown. */
  cwd: string | undefined;
  listDir: ListDir;
  /** How many names (directory entries read, brace words made) a command may cost before it is unknown. */
  limit: number;
}

interface Field {
  value: string;
  /** The same text with glob characters that came from quotes escaped. */
  pattern: string;
}

export class Expander {
  private readonly budget: GlobBudget;
  private globbing: boolean;
  private trustVars = true;

  constructor(
    private readonly tree: Tree,
    private readonly options: ExpandOptions,
  ) {
    this.budget = { left: options.limit };
    this.globbing = options.cwd !== undefined;
  }

  get home(): string {
    return this.options.home;
  }

  stopGlobbing(): void {
    this.globbing = false;
  }

  /** From here on no variable is known: a name reference may assign any of them. */
  forgetVariables(): void {
    this.trustVars = false;
  }

  lookup(scope: Scope, name: string): Arg {
    return this.trustVars ? lookupVar(scope, name, this.options.cwd) : null;
  }

  /** The absolute directory of `scope`, when the caller's cwd is known. */
  directory(scope: Scope): string | null {
    if (scope.cwd === null) return null;
    if (posix.isAbsolute(scope.cwd)) return scope.cwd;
    return this.options.cwd === undefined ? null : posix.resolve(this.options.cwd, scope.cwd);
  }

  /** The arguments one word of a command line becomes. */
  fields(word: ShWord, scope: Scope): Fields {
    const alternatives = braceAlternatives(wordPieces(this.tree, word), this.options.limit);
    if (alternatives === null) return UNKNOWN;
    const args: Arg[] = [];
    for (const pieces of alternatives) {
      const split = splitFields(
        this.withTilde(pieces, scope),
        (name) => this.lookup(scope, name),
        !scope.vars.has("IFS"),
      );
      if (!Array.isArray(split)) return split.single && alternatives.length === 1 ? UNKNOWN_ONE : UNKNOWN;
      for (const field of split) {
        const globbed = this.glob(field, scope);
        if (globbed === null) return UNKNOWN;
        args.push(...globbed);
      }
    }
    return { args, exact: true };
  }

  /** The value of an assignment (`F=…`): no brace expansion, splitting or globbing. */
  value(word: ShWord | null, scope: Scope): Arg {
    if (word === null) return "";
    let value = "";
    for (const piece of this.withTilde(wordPieces(this.tree, word), scope)) {
      if (piece.kind === "lit") {
        // `PATH=a:~/b` expands `~` after a colon too: not worth following.
        if (piece.raw.includes(":~")) return null;
        value += unescapeLiteral(piece.raw);
      } else if (piece.kind === "text") {
        value += piece.text;
      } else {
        const found = piece.kind === "var" ? this.lookup(scope, piece.name) : null;
        if (found === null) return null;
        value += found;
      }
    }
    return value;
  }

  /**
   * `~` and `~/…` at the start of a word become `$HOME` as the script left it (`HOME=x; cd ~`);
   * `~user`, `~+` are unknown.
   */
  private withTilde(pieces: Piece[], scope: Scope): Piece[] {
    const first = pieces[0];
    if (first?.kind !== "lit" || !first.raw.startsWith("~")) return pieces;
    const slash = first.raw.indexOf("/");
    const user = slash === -1 ? first.raw.slice(1) : first.raw.slice(1, slash);
    const value = user === "" ? this.lookup(scope, "HOME") : null;
    if (value === null) return [{ kind: "unknown", single: false }];
    const home: Piece = { kind: "text", text: value };
    const rest: Piece[] = slash === -1 ? [] : [{ kind: "lit", raw: first.raw.slice(slash) }];
    return [home, ...rest, ...pieces.slice(1)];
  }

  private glob(field: Field, scope: Scope): Arg[] | null {
    if (!hasGlob(field.pattern)) return [field.value];
    const base = field.pattern.startsWith("/") ? "/" : scope.cwd;
    if (!this.globbing || base === null || scope.vars.has("GLOBIGNORE")) return null;
    const dir = posix.resolve(this.options.cwd!, base);
    const matches = matchGlob(field.pattern, dir, this.options.listDir, this.budget);
    if (matches === null) return null;
    return matches.length === 0 ? [field.value] : matches;
  }
}

/** The words brace expansion makes of a word, each as its pieces; null when it cannot be told. */
function braceAlternatives(pieces: Piece[], limit: number): Piece[][] | null {
  let alternatives: Piece[][] = [[]];
  for (const [i, piece] of pieces.entries()) {
    if (piece.kind !== "lit" || !piece.raw.includes("{")) {
      for (const alternative of alternatives) alternative.push(piece);
      continue;
    }
    // `{a,"b c"}`: the list runs through a quoted part; bash expands it, we do not try.
    const later = pieces.slice(i + 1);
    if (leavesBraceOpen(piece.raw) && later.some((p) => p.kind === "lit" && p.raw.includes("}"))) return null;
    const raws = expandBraces(piece.raw, limit);
    if (raws === null) return null;
    alternatives = alternatives.flatMap((alternative) =>
      raws.map((raw): Piece[] => [...alternative, { kind: "lit", raw }]),
    );
    if (alternatives.length > limit) return null;
  }
  return alternatives;
}

/**
 * Word splitting: an unquoted value breaks into words at blanks (the default
 * IFS). Returns the fields, or whether the unknown word is sure to be one word.
 */
function splitFields(
  pieces: Piece[],
  lookup: (name: string) => Arg,
  defaultIfs: boolean,
): Field[] | { single: boolean } {
  const fields: Field[] = [];
  let current: Field | null = null;
  let unknown = false;
  let single = true;
  const add = (value: string, pattern: string) => {
    current ??= { value: "", pattern: "" };
    current.value += value;
    current.pattern += pattern;
  };
  const endField = () => {
    if (current) fields.push(current);
    current = null;
  };
  for (const piece of pieces) {
    const value = piece.kind === "var" ? lookup(piece.name) : null;
    if (piece.kind === "lit") {
      add(unescapeLiteral(piece.raw), piece.raw.replace(/\\\n/g, ""));
    } else if (piece.kind === "text") {
      add(piece.text, escapeGlob(piece.text));
    } else if (piece.kind === "var" && value !== null && piece.quoted) {
      add(value, escapeGlob(value));
    } else if (piece.kind === "var" && value !== null && defaultIfs && !value.includes("\\")) {
      for (const [j, word] of value.split(/[ \t\n]+/).entries()) {
        if (j > 0) endField();
        if (word !== "") add(word, word);
      }
    } else {
      unknown = true;
      single &&= piece.kind === "unknown" ? piece.single : piece.quoted;
    }
  }
  endField();
  return unknown ? { single } : fields;
}
