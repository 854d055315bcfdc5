/**
 * A parser for the plainest shell commands (docs/decisions/0010-quick-shell-parse.md):
 * words of literal text and simple quotes, joined by `;`, `&&`, `||` and `|`, with
 * file redirections. Loading mvdan-sh costs a shell hook ~120 ms; most commands
 * agents run (`npm test 2>&1 | tail`, `git status`, `python3 -c '…'`) need none of
 * what it alone can read. For such a command this builds the tree mvdan-sh would
 * build (same node types, fields and nesting; a differential test holds the two
 * together), and for anything else it returns null and the caller loads mvdan-sh.
 * When in doubt it says null: a refusal here only costs the slow path.
 */
import type { Parser } from "./load.js";
import type { ShFile, ShNode, ShRedirect, ShStmt, ShSyntax, ShWord } from "./syntax.js";

/** Thrown when a script met during the walk (`sh -c '…'`) needs the full parser. */
export class NeedsFullParser extends Error {}

type Node = ShNode & { $type: string } & Record<string, unknown>;

const node = (type: string, fields: Record<string, unknown>): Node => ({ $type: type, ...fields }) as Node;

/** Operators spelled as mvdan-sh spells them; the numbers are ours (the walk only compares them). */
const REDIRECT_OPS = [">", ">>", ">|", "&>", "&>>", "<>", ">&", "<&", "<"] as const;
const LONGEST_FIRST = [...REDIRECT_OPS].sort((a, b) => b.length - a.length);
const AND = 100;
const OR = 101;
const PIPE = 102;

/**
 * Names that make the statement something other than a plain call in bash: reserved
 * words, and the builtins mvdan-sh parses as their own clauses (`export a=b`, `let`).
 */
const SPECIAL_NAMES = new Set(
  "if then elif else fi do done case esac while until for in select function time coproc ! { } [[ ]] declare local export readonly typeset nameref let".split(
    " ",
  ),
);

/** Unquoted characters that start anything but literal text, or that we leave to mvdan-sh. */
const SPECIAL_CHARS = new Set([..."$`\\(){}[]*?~#!", '"', "'", ..."|&;<>"]);

class Reader {
  pos = 0;
  constructor(readonly src: string) {}
  peek(offset = 0): string {
    return this.src[this.pos + offset] ?? "";
  }
  skipBlanks(): void {
    while (this.peek() === " " || this.peek() === "\t") this.pos++;
  }
  startsWith(text: string): boolean {
    return this.src.startsWith(text, this.pos);
  }
}

/** The tree mvdan-sh would give `src`, or null when `src` is not plain enough to be sure. */
export function quickParse(src: string): ShFile | null {
  // Newlines (heredocs, continuations), other control characters and NUL go to mvdan-sh.
  if (hasControlCharacter(src)) return null;
  const r = new Reader(src);
  const stmts: ShStmt[] = [];
  r.skipBlanks();
  while (r.pos < src.length) {
    const stmt = andOr(r);
    if (!stmt) return null;
    stmts.push(stmt);
    r.skipBlanks();
    if (r.peek() === ";") {
      if (r.peek(1) === ";" || r.peek(1) === "&") return null;
      r.pos++;
      r.skipBlanks();
    } else if (r.pos < src.length) return null;
  }
  return node("File", { Stmts: stmts }) as unknown as ShFile;
}

function hasControlCharacter(src: string): boolean {
  for (let i = 0; i < src.length; i++) {
    const code = src.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) return true;
  }
  return false;
}

/** `a && b || c`: left-associative, as bash groups it. */
function andOr(r: Reader): ShStmt | null {
  let left = pipeline(r);
  while (left) {
    r.skipBlanks();
    const op = r.startsWith("&&") ? AND : r.startsWith("||") ? OR : null;
    if (op === null) return left;
    r.pos += 2;
    r.skipBlanks();
    const right = pipeline(r);
    if (!right) return null;
    left = statement(node("BinaryCmd", { Op: op, X: left, Y: right }), []);
  }
  return null;
}

function pipeline(r: Reader): ShStmt | null {
  let left = simpleCommand(r);
  while (left) {
    r.skipBlanks();
    if (r.peek() !== "|" || r.peek(1) === "|") return left;
    if (r.peek(1) === "&") return null; // `|&`
    r.pos++;
    r.skipBlanks();
    const right = simpleCommand(r);
    if (!right) return null;
    left = statement(node("BinaryCmd", { Op: PIPE, X: left, Y: right }), []);
  }
  return null;
}

function statement(cmd: Node, redirs: ShRedirect[]): ShStmt {
  return node("Stmt", {
    Cmd: cmd,
    Redirs: redirs,
    Background: false,
    Coprocess: false,
    Negated: false,
  }) as unknown as ShStmt;
}

function simpleCommand(r: Reader): ShStmt | null {
  const args: ShWord[] = [];
  const redirs: ShRedirect[] = [];
  for (;;) {
    r.skipBlanks();
    const c = r.peek();
    if (c === "" || c === ";" || c === "|" || r.startsWith("&&")) break;
    const redir = redirect(r, null);
    if (redir === undefined) return null;
    if (redir) {
      redirs.push(redir);
      continue;
    }
    const start = r.pos;
    const w = word(r);
    if (!w || (partsOf(w).length > 1 && digitsBeforeRedirect(w, r))) return null;
    const fd = /^\d+$/.test(src(r, start)) && (r.peek() === ">" || r.peek() === "<");
    if (fd) {
      const numbered = redirect(r, node("Lit", { Value: src(r, start) }));
      if (!numbered) return null;
      redirs.push(numbered);
      continue;
    }
    args.push(w);
  }
  const name = args[0];
  if (!name || !plainName(name)) return null;
  return statement(node("CallExpr", { Assigns: [], Args: args }), redirs);
}

function partsOf(w: ShWord): Node[] {
  return (w as unknown as { Parts: Node[] }).Parts;
}

/**
 * Digits that end a word right before `>` or `<` (`"a b"2>f`, `&>2>f`): mvdan-sh reads them as the
 * next redirection's descriptor where bash reads them as part of the word. Left to mvdan-sh, whose
 * tree is the contract (found by the fast-check differential test).
 */
function digitsBeforeRedirect(w: ShWord, r: Reader): boolean {
  const last = partsOf(w).at(-1);
  const digits = last?.$type === "Lit" && /^\d+$/.test(String(last.Value));
  return digits && (r.peek() === ">" || r.peek() === "<");
}

function src(r: Reader, start: number): string {
  return r.src.slice(start, r.pos);
}

/** The command name must not be a keyword, a declaration or an assignment. */
function plainName(name: ShWord): boolean {
  const text = (name as unknown as { Parts: Node[] }).Parts.map((p) => String(p.Value ?? "")).join("");
  return !SPECIAL_NAMES.has(text) && !text.includes("=");
}

/**
 * A redirection at the reader, or null when there is none; undefined when there is one
 * we leave to mvdan-sh (heredocs, here-strings, process substitution).
 */
function redirect(r: Reader, fd: Node | null): ShRedirect | null | undefined {
  const op = LONGEST_FIRST.find((o) => r.startsWith(o));
  if (!op) return r.peek() === "<" || r.peek() === ">" || r.peek() === "&" ? undefined : null;
  if (r.startsWith("<<") || r.startsWith("<(") || r.startsWith(">(")) return undefined;
  r.pos += op.length;
  r.skipBlanks();
  const target = word(r);
  if (!target || digitsBeforeRedirect(target, r)) return undefined;
  return node("Redirect", {
    Op: REDIRECT_OPS.indexOf(op) + 1,
    N: fd,
    Word: target,
    Hdoc: null,
  }) as unknown as ShRedirect;
}

/** One word: literal runs and quoted strings with nothing to expand; null otherwise. */
function word(r: Reader): ShWord | null {
  const parts: Node[] = [];
  for (;;) {
    const c = r.peek();
    if (c === "'") {
      const end = r.src.indexOf("'", r.pos + 1);
      if (end < 0) return null;
      parts.push(node("SglQuoted", { Dollar: false, Value: r.src.slice(r.pos + 1, end) }));
      r.pos = end + 1;
    } else if (c === '"') {
      const end = r.src.indexOf('"', r.pos + 1);
      const text = end < 0 ? null : r.src.slice(r.pos + 1, end);
      if (text === null || /[$`\\]/.test(text)) return null;
      parts.push(node("DblQuoted", { Parts: text ? [node("Lit", { Value: text })] : [] }));
      r.pos = end + 1;
    } else if (isLiteral(c)) {
      const start = r.pos;
      while (isLiteral(r.peek())) r.pos++;
      parts.push(node("Lit", { Value: src(r, start) }));
    } else break;
  }
  if (parts.length === 0) return null;
  // A special character glued to the word (`a$b`, `a(b`, `a=b`) leaves it to mvdan-sh,
  // except the operators and redirections that may follow a word directly.
  const next = r.peek();
  if (next !== "" && SPECIAL_CHARS.has(next) && !"|&;<>".includes(next)) return null;
  return node("Word", { Parts: parts }) as unknown as ShWord;
}

function isLiteral(c: string): boolean {
  return c !== "" && c !== " " && c !== "\t" && !SPECIAL_CHARS.has(c);
}

/** The parts of mvdan-sh's API the walk uses, over the trees `quickParse` builds. */
const quickSyntax: ShSyntax = {
  NewParser: () => ({ Parse: (s: string) => parseOrThrow(s) }),
  NodeType: (n: ShNode) => (n as Node).$type,
  Walk(root: ShNode, visit: (n: ShNode | null) => boolean): void {
    if (!visit(root)) return;
    for (const value of Object.values(root as Node)) {
      for (const child of Array.isArray(value) ? value : [value]) {
        if (child && typeof child === "object" && "$type" in child) quickSyntax.Walk(child as ShNode, visit);
      }
    }
  },
};

function parseOrThrow(script: string): ShFile {
  const file = quickParse(script);
  if (!file) throw new NeedsFullParser(script);
  return file;
}

/** A `Parser` over quick trees: a script it cannot read aborts the walk (NeedsFullParser). */
export const quickParser: Parser = {
  syntax: quickSyntax,
  parse: parseOrThrow,
  redirOps: new Map(REDIRECT_OPS.map((op, i) => [i + 1, op])),
  pipeOps: new Set([PIPE]),
  andOp: AND,
  orOp: OR,
};
