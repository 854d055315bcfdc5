/**
 * Write targets of a shell command (PRODUCT.md §4.3 step 1, CLIENTS.md §5 step 1).
 *
 * The command is parsed with mvdan/sh (the `mvdan-sh` package, loaded on first use;
 * see docs/decisions/0003-shell-parser.md) and walked: output redirections and the
 * operands of well-known mutating commands are write targets; `apply_patch`
 * heredocs are returned for the patch parser. Anything that could write files in a
 * way we cannot see marks the result `opaque`, so the caller knows the list is not
 * the whole story (post-use compares the dirty set, §4.5).
 *
 * Paths are returned as written (unquoted, unescaped), not resolved against the
 * payload `cwd`. Best effort for `cd`: after `cd DIR` (also `pushd DIR`, `git -C DIR`,
 * `env -C DIR`) later relative targets are joined onto DIR posix-style; a `cd` we
 * cannot follow (`cd "$X"`, `cd -`, `popd`) makes later relative targets unknown,
 * which marks the result opaque instead of guessing. `cd` inside a subshell,
 * pipeline, command substitution or background job does not leak out, as in bash.
 */
import { homedir } from "node:os";
import { posix } from "node:path";
import { parsePatchTargets, writePaths } from "./apply-patch.js";

export interface ShellTargets {
  /** Paths the command writes, as written, joined onto a preceding `cd` directory. */
  writes: string[];
  /**
   * Bodies of `apply_patch` heredocs (or a static patch argument). Their paths are
   * already in `writes` (with any `cd` prefix); the text is there for callers that
   * want the per-file operations.
   */
  patches: string[];
  /** Part of the command may write files we cannot name. */
  opaque: boolean;
  /** The command does not parse, or the parser is missing (then `opaque` is true). */
  error?: string;
}

export interface ShellTargetOptions {
  /** What `~` expands to; defaults to the current user's home directory. */
  home?: string;
}

/** Extracts the write targets of one shell command line (or script). */
export async function extractShellTargets(
  command: string,
  options: ShellTargetOptions = {},
): Promise<ShellTargets> {
  let parser: Parser;
  try {
    parser = await loadParser();
  } catch (err) {
    // A broken install must not take the hook down with it.
    return {
      writes: [],
      patches: [],
      opaque: true,
      error: `shell parser unavailable: ${parseErrorMessage(err)}`,
    };
  }
  return withGoStacks(() => extractWith(parser, command, options.home ?? homedir()));
}

function extractWith(parser: Parser, command: string, home: string): ShellTargets {
  let file: ShFile;
  try {
    file = parser.parse(command);
  } catch (err) {
    return { writes: [], patches: [], opaque: true, error: parseErrorMessage(err) };
  }
  const walker = new Walker(parser, home);
  try {
    walker.walkStmts(file.Stmts, { cwd: "" });
  } catch (err) {
    // A node shape we did not expect must not crash a hook: report what we have.
    return { ...walker.result(), opaque: true, error: `shell walk failed: ${parseErrorMessage(err)}` };
  }
  return walker.result();
}

/**
 * GopherJS sets `Error.stackTraceLimit = Infinity` when it loads and counts stack
 * frames for panic/recover, so Go code gets full stacks while it runs and the rest
 * of the process keeps its own limit.
 */
function withGoStacks<T>(run: () => T): T {
  const saved = Error.stackTraceLimit;
  Error.stackTraceLimit = Number.POSITIVE_INFINITY;
  try {
    return run();
  } finally {
    Error.stackTraceLimit = saved;
  }
}

// ---------------------------------------------------------------------------
// The slice of mvdan-sh's (GopherJS) API and syntax tree that we read. The
// package ships no types; field names follow mvdan.cc/sh/v3/syntax.

interface ShNode {
  readonly __shNode?: never;
}
interface ShFile extends ShNode {
  Stmts: ShStmt[];
}
interface ShStmt extends ShNode {
  Cmd: ShNode | null;
  Redirs: ShRedirect[];
  Background: boolean;
  Coprocess: boolean;
}
interface ShRedirect extends ShNode {
  Op: number;
  Word: ShWord | null;
  Hdoc: ShWord | null;
}
interface ShWord extends ShNode {
  Parts: ShNode[];
}
interface ShLit extends ShNode {
  Value: string;
}
interface ShSglQuoted extends ShNode {
  Dollar: boolean;
  Value: string;
}
interface ShDblQuoted extends ShNode {
  Parts: ShNode[];
}
interface ShCallExpr extends ShNode {
  Assigns: ShAssign[];
  Args: ShWord[];
}
interface ShAssign extends ShNode {
  Value: ShWord | null;
  Index: ShNode | null;
  Array: ShNode | null;
}
interface ShBinaryCmd extends ShNode {
  Op: number;
  X: ShStmt;
  Y: ShStmt;
}
interface ShStmtList extends ShNode {
  Stmts: ShStmt[];
}
interface ShIfClause extends ShNode {
  Cond: ShStmt[];
  Then: ShStmt[];
  Else: ShIfClause | null;
}
interface ShWhileClause extends ShNode {
  Cond: ShStmt[];
  Do: ShStmt[];
}
interface ShForClause extends ShNode {
  Loop: ShNode;
  Do: ShStmt[];
}
interface ShCaseClause extends ShNode {
  Word: ShWord;
  Items: { Patterns: ShWord[]; Stmts: ShStmt[] }[];
}
interface ShFuncDecl extends ShNode {
  Name: ShLit;
  Body: ShStmt;
}
interface ShInnerStmt extends ShNode {
  Stmt: ShStmt | null;
}
interface ShSyntax {
  NewParser(): { Parse(src: string, name: string): ShFile };
  NodeType(node: ShNode): string;
  Walk(node: ShNode, visit: (node: ShNode | null) => boolean): void;
}

interface ShModule {
  syntax?: ShSyntax;
  default?: { syntax?: ShSyntax };
}

interface Parser {
  syntax: ShSyntax;
  parse(src: string): ShFile;
  /** mvdan-sh exposes operators as Go token numbers; we learn their spelling at load. */
  redirOps: Map<number, string>;
  pipeOps: Set<number>;
}

let parserInstance: Promise<Parser> | undefined;

function loadParser(): Promise<Parser> {
  parserInstance ??= importParser();
  return parserInstance;
}

/**
 * Loads mvdan-sh on first use, from the package's node_modules at run time: the
 * specifier is not a string literal, so esbuild leaves the 1.5 MB parser out of the
 * bundle that every hook process reads. The CommonJS bundle has `require`, which
 * loads it ~100 ms faster than `import()` (no ESM export scan of the whole file);
 * ESM callers such as the tests fall back to `import()`.
 */
async function importParser(): Promise<Parser> {
  const specifier = "mvdan-sh";
  const load = typeof require === "function" ? require : undefined;
  const stackTraceLimit = Error.stackTraceLimit;
  const hadGlobalRequire = Object.hasOwn(globalThis, "require");
  const mod = (load ? load(specifier) : await import(specifier)) as ShModule;
  // Undo the globals GopherJS sets on load (see withGoStacks).
  Error.stackTraceLimit = stackTraceLimit;
  if (!hadGlobalRequire) Reflect.deleteProperty(globalThis, "require");
  const syntax = mod.syntax ?? mod.default?.syntax;
  if (!syntax) throw new Error("mvdan-sh did not load");
  const shParser = syntax.NewParser();
  const parse = (src: string) => shParser.Parse(src, "");
  return withGoStacks(() => ({
    syntax,
    parse,
    redirOps: learnRedirOps(parse),
    pipeOps: learnPipeOps(parse),
  }));
}

function learnRedirOps(parse: (src: string) => ShFile): Map<number, string> {
  const spelled = [">", ">>", ">|", "&>", "&>>", "<>", ">&", "<&", "<<<", "<", "<<", "<<-"];
  const redirs = parse(": >a >>a >|a &>a &>>a <>a >&a <&a <<<a <a <<A <<-B\nA\n\tB\n").Stmts[0]!.Redirs;
  return new Map(redirs.map((r, i) => [r.Op, spelled[i]!]));
}

function learnPipeOps(parse: (src: string) => ShFile): Set<number> {
  return new Set(["a | b", "a |& b"].map((src) => (parse(src).Stmts[0]!.Cmd as ShBinaryCmd).Op));
}

function parseErrorMessage(err: unknown): string {
  // GopherJS throws Go error values: an object with an Error() method.
  if (err && typeof (err as { Error?: unknown }).Error === "function")
    return (err as { Error(): string }).Error();
  return err instanceof Error ? err.message : String(err);
}

// ---------------------------------------------------------------------------
// Walking the tree.

/** Where relative paths land: "" = the caller's cwd, null = somewhere we cannot tell. */
interface Scope {
  cwd: string | null;
}

/** One argument: its static value, or null when it expands at run time. */
type Arg = string | null;

const WRITE_REDIRECTS = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);
const MAX_NESTING = 4;

class Walker {
  private readonly writes = new Set<string>();
  private readonly patches: string[] = [];
  private opaque = false;
  private readonly functions = new Set<string>();
  private nesting = 0;

  constructor(
    private readonly parser: Parser,
    private readonly home: string,
  ) {}

  result(): ShellTargets {
    return { writes: [...this.writes], patches: [...this.patches], opaque: this.opaque };
  }

  markOpaque(): void {
    this.opaque = true;
  }

  walkStmts(stmts: ShStmt[], scope: Scope): void {
    for (const stmt of stmts) this.walkStmt(stmt, scope);
  }

  private walkStmt(stmt: ShStmt, outer: Scope): void {
    // A background job or coprocess runs in a subshell: its `cd` stays there.
    const scope = stmt.Background || stmt.Coprocess ? { ...outer } : outer;
    for (const redir of stmt.Redirs) this.walkRedirect(redir, scope);
    if (stmt.Cmd) this.walkCommand(stmt.Cmd, stmt, scope);
  }

  private walkRedirect(redir: ShRedirect, scope: Scope): void {
    const op = this.parser.redirOps.get(redir.Op);
    if (redir.Hdoc) this.walkWordSubstitutions(redir.Hdoc, scope);
    if (!redir.Word) return;
    if (op !== undefined && WRITE_REDIRECTS.has(op)) {
      this.addTarget(this.wordArg(redir.Word, scope), scope);
    } else if (op === ">&") {
      // `>&2` and `>&-` duplicate or close a descriptor; `>& file` is bash for `&> file`.
      const word = this.wordArg(redir.Word, scope);
      if (word === null || !/^(\d+-?|-)$/.test(word)) this.addTarget(word, scope);
    } else {
      this.walkWordSubstitutions(redir.Word, scope);
    }
  }

  private walkCommand(cmd: ShNode, stmt: ShStmt, scope: Scope): void {
    const type = this.parser.syntax.NodeType(cmd);
    switch (type) {
      case "CallExpr":
        this.walkCall(cmd as ShCallExpr, stmt, scope);
        return;
      case "BinaryCmd":
        this.walkBinary(cmd as ShBinaryCmd, scope);
        return;
      case "Subshell":
        this.walkStmts((cmd as ShStmtList).Stmts, { ...scope });
        return;
      case "Block":
        this.walkStmts((cmd as ShStmtList).Stmts, scope);
        return;
      case "IfClause":
        this.walkIf(cmd as ShIfClause, scope);
        return;
      case "WhileClause":
        this.walkStmts((cmd as ShWhileClause).Cond, scope);
        this.walkStmts((cmd as ShWhileClause).Do, scope);
        return;
      case "ForClause":
        this.walkSubstitutions((cmd as ShForClause).Loop, scope);
        this.walkStmts((cmd as ShForClause).Do, scope);
        return;
      case "CaseClause":
        this.walkCase(cmd as ShCaseClause, scope);
        return;
      case "FuncDecl":
        this.walkFunction(cmd as ShFuncDecl, scope);
        return;
      case "TimeClause":
      case "CoprocClause": {
        const inner = (cmd as ShInnerStmt).Stmt;
        if (inner) this.walkStmt(inner, type === "CoprocClause" ? { ...scope } : scope);
        return;
      }
      case "DeclClause":
      case "LetClause":
      case "TestClause":
      case "ArithmCmd":
        // Assignments and tests write no files, but `$(…)` inside them runs commands.
        this.walkSubstitutions(cmd, scope);
        return;
      default:
        this.markOpaque();
        this.walkSubstitutions(cmd, scope);
        return;
    }
  }

  private walkBinary(cmd: ShBinaryCmd, scope: Scope): void {
    // Every part of a pipeline runs in its own subshell; `&&` and `||` run in ours.
    const isPipe = this.parser.pipeOps.has(cmd.Op);
    this.walkStmt(cmd.X, isPipe ? { ...scope } : scope);
    this.walkStmt(cmd.Y, isPipe ? { ...scope } : scope);
  }

  private walkIf(clause: ShIfClause, scope: Scope): void {
    this.walkStmts(clause.Cond, scope);
    this.walkStmts(clause.Then, scope);
    if (clause.Else) this.walkIf(clause.Else, scope);
  }

  private walkCase(clause: ShCaseClause, scope: Scope): void {
    this.walkWordSubstitutions(clause.Word, scope);
    for (const item of clause.Items) {
      for (const pattern of item.Patterns) this.walkWordSubstitutions(pattern, scope);
      this.walkStmts(item.Stmts, scope);
    }
  }

  private walkFunction(decl: ShFuncDecl, scope: Scope): void {
    // The body is claimed where it is declared, so calling the function adds nothing.
    this.functions.add(decl.Name.Value);
    this.walkStmt(decl.Body, { ...scope });
  }

  private walkCall(call: ShCallExpr, stmt: ShStmt, scope: Scope): void {
    for (const assign of call.Assigns) {
      if (assign.Value && !assign.Index && !assign.Array) this.walkWordSubstitutions(assign.Value, scope);
      else this.walkSubstitutions(assign, scope);
    }
    for (const word of call.Args) this.walkWordSubstitutions(word, scope);
    if (call.Args.length === 0) return; // assignments only
    const argv = call.Args.map((word) => this.staticWord(word));
    runCommand(argv, { walker: this, scope, heredoc: this.heredocBody(stmt) });
  }

  /** Like walkSubstitutions, skipping the costly generic walk for words of literals and quotes. */
  private walkWordSubstitutions(word: ShWord, scope: Scope): void {
    if (!this.isPlainWord(word)) this.walkSubstitutions(word, scope);
  }

  private isPlainWord(word: ShWord): boolean {
    const { syntax } = this.parser;
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

  /** Runs the commands inside `$(…)`, backquotes and `<(…)` found anywhere under `node`. */
  walkSubstitutions(node: ShNode, scope: Scope): void {
    const { syntax } = this.parser;
    syntax.Walk(node, (child) => {
      if (child === null) return true;
      const type = syntax.NodeType(child);
      if (type !== "CmdSubst" && type !== "ProcSubst") return true;
      this.walkStmts((child as ShStmtList).Stmts, { ...scope });
      return false;
    });
  }

  /** A word's static value (quotes removed, escapes applied), running any substitutions in it. */
  private wordArg(word: ShWord, scope: Scope): Arg {
    this.walkWordSubstitutions(word, scope);
    return this.staticWord(word);
  }

  private staticWord(word: ShWord): Arg {
    const { syntax } = this.parser;
    let value = "";
    for (const [index, part] of word.Parts.entries()) {
      const piece = staticPart(syntax, part, index === 0, this.home);
      if (piece === null) return null;
      value += piece;
    }
    return value;
  }

  /** The body of a `<<` / `<<-` heredoc on this statement, if any. */
  private heredocBody(stmt: ShStmt): Arg | undefined {
    for (const redir of stmt.Redirs) {
      const op = this.parser.redirOps.get(redir.Op);
      if ((op !== "<<" && op !== "<<-") || !redir.Hdoc) continue;
      const body = heredocText(this.parser.syntax, redir.Hdoc, this.isPlainLiteral(redir.Word));
      if (body === null) return null;
      return op === "<<-" ? body.replace(/^\t+/gm, "") : body;
    }
    return undefined;
  }

  /** A heredoc delimiter written without quotes or backslashes lets the body expand. */
  private isPlainLiteral(word: ShWord | null): boolean {
    if (!word) return false;
    const { syntax } = this.parser;
    return word.Parts.every(
      (part) => syntax.NodeType(part) === "Lit" && !(part as ShLit).Value.includes("\\"),
    );
  }

  addTarget(path: Arg, scope: Scope): void {
    if (path === null) {
      this.markOpaque();
      return;
    }
    if (path === "") return;
    if (!posix.isAbsolute(path) && scope.cwd === null) {
      this.markOpaque();
      return;
    }
    const placed = posix.isAbsolute(path) || scope.cwd === "" ? path : posix.join(scope.cwd!, path);
    if (!isSpecialFile(placed)) this.writes.add(placed);
  }

  addPatch(text: string, scope: Scope): void {
    this.patches.push(text);
    for (const path of writePaths(parsePatchTargets(text))) this.addTarget(path, scope);
  }

  /** Walks a script given to `bash -c` and the like, parsed like the outer command. */
  walkScript(script: string, scope: Scope): void {
    if (this.nesting >= MAX_NESTING) {
      this.markOpaque();
      return;
    }
    let file: ShFile;
    try {
      file = this.parser.parse(script);
    } catch {
      this.markOpaque();
      return;
    }
    this.nesting++;
    this.walkStmts(file.Stmts, scope);
    this.nesting--;
  }

  isFunction(name: string): boolean {
    return this.functions.has(name);
  }

  expandHome(path: string): string {
    return path === "~" ? this.home : path.startsWith("~/") ? this.home + path.slice(1) : path;
  }
}

function isSpecialFile(path: string): boolean {
  return path.startsWith("/dev/") || path.startsWith("/proc/self/fd/");
}

// ---------------------------------------------------------------------------
// Words: quote removal and the cases where the value is only known at run time.

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

/**
 * Heredoc text; null when it has expansions (`$x` under an unquoted delimiter).
 * Under an unquoted delimiter a backslash escapes only $ ` \ and newline.
 */
function heredocText(syntax: ShSyntax, body: ShWord, unquotedDelimiter: boolean): Arg {
  let text = "";
  for (const part of body.Parts) {
    if (syntax.NodeType(part) !== "Lit") return null;
    text += (part as ShLit).Value;
  }
  return unquotedDelimiter
    ? text.replace(/\\([$`\\\n])/g, (_m, ch: string) => (ch === "\n" ? "" : ch))
    : text;
}

// ---------------------------------------------------------------------------
// Commands.

interface CommandContext {
  walker: Walker;
  scope: Scope;
  /** The statement's heredoc body: undefined when there is none, null when dynamic. */
  heredoc: Arg | undefined;
}

type Handler = (args: Arg[], ctx: CommandContext) => void;

function runCommand(argv: Arg[], ctx: CommandContext): void {
  const [name, ...args] = argv;
  if (name === null || name === undefined) {
    ctx.walker.markOpaque();
    return;
  }
  // `/usr/bin/rm` is `rm`; `./build.sh` stays unknown.
  const command = name.startsWith("/") ? posix.basename(name) : name;
  if (ctx.walker.isFunction(command) || READ_ONLY.has(command)) return;
  const handler = HANDLERS[command];
  if (handler) {
    handler(args, ctx);
    return;
  }
  ctx.walker.markOpaque();
}

/** Commands that never write files (output goes to stdout; redirections are seen separately). */
const READ_ONLY = new Set(
  [
    ": true false test [ echo printf pwd ls dir vdir cat tac nl head tail less more",
    "grep egrep fgrep rg ag ack wc cut tr paste join column fold fmt expand unexpand rev comm cmp diff",
    "od hexdump strings file stat du df realpath readlink basename dirname which whereis type hash",
    "date whoami id uname hostname printenv locale nproc uptime ps pgrep jobs wait sleep seq yes",
    "md5sum sha1sum sha256sum sha512sum shasum cksum b2sum base64 base32 jq",
    "export unset set shopt alias unalias read local declare typeset readonly shift exit return",
    "break continue history help man tput clear getopts umask ulimit",
  ]
    .join(" ")
    .split(" "),
);

/** Option syntax of one command: which short and long options take a value. */
interface OptionSpec {
  /** Short options that take a value (attached or in the next argument). */
  valued?: string;
  /** Short options whose value may only be attached (`sed -i.bak`). */
  attached?: string;
  /** Long options that take a value in the next argument when not given `=value`. */
  long?: string[];
}

interface ParsedArgs {
  operands: Arg[];
  /** Options seen, keyed `-x` / `--name`, each with its values (`""` for a bare flag). */
  options: Map<string, string[]>;
  /** A dynamic argument sat where an option could be. */
  dynamic: boolean;
}

/** GNU getopt_long with argument permutation: options may follow operands until `--`. */
function parseArgs(args: Arg[], spec: OptionSpec = {}): ParsedArgs {
  const parsed: ParsedArgs = { operands: [], options: new Map(), dynamic: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === null || arg === "-" || !arg.startsWith("-")) {
      parsed.operands.push(arg);
    } else if (arg === "--") {
      parsed.operands.push(...args.slice(i + 1));
      break;
    } else if (arg.startsWith("--")) {
      i += parseLong(arg, args[i + 1], spec, parsed);
    } else {
      i += parseShortCluster(arg, args[i + 1], spec, parsed);
    }
  }
  parsed.dynamic = parsed.operands.includes(null);
  return parsed;
}

function addOption(parsed: ParsedArgs, key: string, value: Arg): void {
  const values = parsed.options.get(key) ?? [];
  if (value === null) parsed.dynamic = true;
  values.push(value ?? "");
  parsed.options.set(key, values);
}

/** Returns how many following arguments were consumed. */
function parseLong(arg: string, next: Arg | undefined, spec: OptionSpec, parsed: ParsedArgs): number {
  const eq = arg.indexOf("=");
  if (eq !== -1) {
    addOption(parsed, arg.slice(0, eq), arg.slice(eq + 1));
    return 0;
  }
  if (spec.long?.includes(arg) && next !== undefined) {
    addOption(parsed, arg, next);
    return 1;
  }
  addOption(parsed, arg, "");
  return 0;
}

function parseShortCluster(arg: string, next: Arg | undefined, spec: OptionSpec, parsed: ParsedArgs): number {
  for (let j = 1; j < arg.length; j++) {
    const flag = arg[j]!;
    const rest = arg.slice(j + 1);
    if (spec.attached?.includes(flag)) {
      addOption(parsed, `-${flag}`, rest);
      return 0;
    }
    if (spec.valued?.includes(flag)) {
      if (rest !== "" || next === undefined) {
        addOption(parsed, `-${flag}`, rest);
        return 0;
      }
      addOption(parsed, `-${flag}`, next);
      return 1;
    }
    addOption(parsed, `-${flag}`, "");
  }
  return 0;
}

function has(parsed: ParsedArgs, ...keys: string[]): boolean {
  return keys.some((key) => parsed.options.has(key));
}

function values(parsed: ParsedArgs, ...keys: string[]): string[] {
  return keys.flatMap((key) => parsed.options.get(key) ?? []);
}

function addAll(ctx: CommandContext, paths: Arg[]): void {
  for (const path of paths) ctx.walker.addTarget(path, ctx.scope);
}

/** Every operand is written (rm, touch, mkdir, tee …). */
function operandsWritten(spec: OptionSpec = {}): Handler {
  return (args, ctx) => addAll(ctx, parseArgs(args, spec).operands);
}

const MOVE_SPEC: OptionSpec = { valued: "St", long: ["--suffix", "--target-directory"] };

/** `cp`, `ln`: the destination (last operand, or `-t DIR`) is written. */
function destinationWritten(spec: OptionSpec, single?: (operand: Arg) => Arg): Handler {
  return (args, ctx) => {
    const parsed = parseArgs(args, spec);
    const targetDirs = values(parsed, "-t", "--target-directory");
    if (targetDirs.length > 0) return addAll(ctx, targetDirs);
    const { operands } = parsed;
    if (operands.length >= 2) return addAll(ctx, [operands[operands.length - 1]!]);
    if (operands.length === 1 && single) addAll(ctx, [single(operands[0]!)]);
  };
}

function handleMv(args: Arg[], ctx: CommandContext): void {
  const parsed = parseArgs(args, MOVE_SPEC);
  addAll(ctx, [...parsed.operands, ...values(parsed, "-t", "--target-directory")]);
}

function handleInstall(args: Arg[], ctx: CommandContext): void {
  const spec: OptionSpec = {
    valued: "gmoSt",
    long: ["--group", "--mode", "--owner", "--suffix", "--target-directory", "--strip-program"],
  };
  const parsed = parseArgs(args, spec);
  if (has(parsed, "-d", "--directory")) {
    addAll(ctx, parsed.operands);
    return;
  }
  destinationWritten(spec)(args, ctx);
}

function handleSed(args: Arg[], ctx: CommandContext): void {
  const parsed = parseArgs(args, {
    valued: "efl",
    attached: "i",
    long: ["--expression", "--file", "--line-length"],
  });
  if (!has(parsed, "-i", "--in-place")) return;
  const operands = [...parsed.operands];
  const hasScript = has(parsed, "-e", "-f", "--expression", "--file");
  // BSD sed spells "no backup" as a separate empty argument: `sed -i '' 's/a/b/' f`.
  if (!hasScript && operands[0] === "" && operands.length > 1) operands.shift();
  addAll(ctx, hasScript ? operands : operands.slice(1));
}

/** `perl -i` edits its file operands; any other perl program is opaque. */
function handlePerl(args: Arg[], ctx: CommandContext): void {
  const { inPlace, hasCode, rest } = parsePerlSwitches(args);
  const files = hasCode ? rest : rest.slice(1);
  if (!inPlace || !hasCode || files.includes(null)) ctx.walker.markOpaque();
  if (inPlace) addAll(ctx, files);
}

function parsePerlSwitches(args: Arg[]): { inPlace: boolean; hasCode: boolean; rest: Arg[] } {
  let inPlace = false;
  let hasCode = false;
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === null || !arg.startsWith("-") || arg === "-") break;
    if (arg === "--") {
      i++;
      break;
    }
    for (let j = 1; j < arg.length; j++) {
      const flag = arg[j]!;
      const rest = arg.slice(j + 1);
      if (flag === "i") inPlace = true;
      if (flag === "e" || flag === "E") hasCode = true;
      if ("eEIMm".includes(flag) && rest === "") i++; // value in the next argument
      if ("ieEIMml0xCdD".includes(flag)) break; // the rest of the cluster is this switch's value
    }
  }
  return { inPlace, hasCode, rest: args.slice(i) };
}

/** `chmod MODE FILE…`: GNU chmod takes a mode such as `-w` where an option could be. */
function handleChmod(args: Arg[], ctx: CommandContext): void {
  const operands: Arg[] = [];
  let reference = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg === null || !arg.startsWith("-") || /^-[rwxXst][rwxXstugoa,+=-]*$/.test(arg)) {
      operands.push(arg);
    } else if (arg.startsWith("--reference")) {
      reference = true;
      if (arg === "--reference") i++;
    }
  }
  addAll(ctx, reference ? operands : operands.slice(1));
}

function handleChown(args: Arg[], ctx: CommandContext): void {
  const parsed = parseArgs(args, { long: ["--from", "--reference"] });
  addAll(ctx, has(parsed, "--reference") ? parsed.operands : parsed.operands.slice(1));
}

function handleDd(args: Arg[], ctx: CommandContext): void {
  for (const arg of args) {
    if (arg === null) ctx.walker.markOpaque();
    else if (arg.startsWith("of=")) addAll(ctx, [arg.slice(3)]);
  }
}

function handleSort(args: Arg[], ctx: CommandContext): void {
  const parsed = parseArgs(args, {
    valued: "kotST",
    long: ["--key", "--output", "--field-separator", "--buffer-size", "--temporary-directory"],
  });
  addAll(ctx, values(parsed, "-o", "--output"));
}

function handleUniq(args: Arg[], ctx: CommandContext): void {
  const parsed = parseArgs(args, { valued: "fsw", long: ["--skip-fields", "--skip-chars", "--check-chars"] });
  if (parsed.operands.length >= 2) addAll(ctx, [parsed.operands[1]!]);
}

/** `find` only reads, unless it deletes, runs commands or prints into files. */
function handleFind(args: Arg[], ctx: CommandContext): void {
  const acting = /^-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/;
  if (args.some((arg) => arg !== null && acting.test(arg))) ctx.walker.markOpaque();
}

function handleApplyPatch(args: Arg[], ctx: CommandContext): void {
  const text = ctx.heredoc !== undefined ? ctx.heredoc : args[0];
  if (text === null || text === undefined) {
    ctx.walker.markOpaque();
    return;
  }
  ctx.walker.addPatch(text, ctx.scope);
}

/** `bash -c SCRIPT`: walk the script; a script file or stdin is opaque. */
function handleShell(args: Arg[], ctx: CommandContext): void {
  let commandMode = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === null) {
      ctx.walker.markOpaque();
      return;
    }
    if (arg === "--" || !/^[-+]/.test(arg) || arg === "-" || arg === "+") {
      const script = args[arg === "--" ? i + 1 : i];
      if (!commandMode || script === null || script === undefined) {
        ctx.walker.markOpaque();
        return;
      }
      ctx.walker.walkScript(script, { ...ctx.scope });
      return;
    }
    if (arg.startsWith("--")) continue; // --login, --norc …
    if (arg.includes("c")) commandMode = true;
    if (/[oO]/.test(arg)) i++; // -o OPTION
  }
  ctx.walker.markOpaque(); // an interactive shell reading stdin
}

// --- Directory changes --------------------------------------------------------

function changeDirectory(ctx: CommandContext, dir: Arg | undefined): void {
  const { scope, walker } = ctx;
  if (dir === undefined) {
    scope.cwd = walker.expandHome("~");
  } else if (dir === null || dir === "-" || /^[+-]\d+$/.test(dir)) {
    scope.cwd = null;
  } else if (posix.isAbsolute(dir)) {
    scope.cwd = dir;
  } else if (scope.cwd !== null) {
    scope.cwd = scope.cwd === "" ? posix.normalize(dir) : posix.join(scope.cwd, dir);
  }
}

function handleCd(args: Arg[], ctx: CommandContext): void {
  const operands = parseArgs(args).operands;
  changeDirectory(ctx, operands[0]);
}

function handlePushd(args: Arg[], ctx: CommandContext): void {
  const operands = parseArgs(args).operands;
  // `pushd` with no directory swaps the top two entries of a stack we do not track.
  changeDirectory(ctx, operands.length === 0 ? null : operands[0]);
}

function handlePopd(_args: Arg[], ctx: CommandContext): void {
  ctx.scope.cwd = null;
}

/** Runs `body` with relative paths resolved in `dir` (`git -C DIR`, `env -C DIR`). */
function withDirectory(dir: string, ctx: CommandContext, body: (inner: CommandContext) => void): void {
  const inner = { ...ctx, scope: { ...ctx.scope } };
  changeDirectory(inner, dir);
  body(inner);
}

// --- git ------------------------------------------------------------------------

const GIT_READ_ONLY = new Set(
  (
    "status log diff show branch tag rev-parse ls-files ls-tree ls-remote grep blame describe shortlog " +
    "remote fetch push add commit config reflog cat-file rev-list show-ref for-each-ref merge-base " +
    "name-rev var version help count-objects fsck check-ignore check-attr whatchanged cherry " +
    "range-diff diff-tree diff-files diff-index notes"
  ).split(" "),
);

const GIT_GLOBAL_VALUED = ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"];

const GIT_HANDLERS: Record<string, Handler> = {
  checkout: gitCheckout,
  restore: gitRestore,
  rm: gitRm,
  mv: (args, ctx) => addAll(ctx, parseArgs(args).operands),
  reset: (args, ctx) => {
    // Only these modes touch the working tree; the others move the index and HEAD.
    if (args.some((arg) => arg === "--hard" || arg === "--merge" || arg === "--keep"))
      ctx.walker.markOpaque();
  },
  stash: (args, ctx) => {
    if (args[0] !== "list" && args[0] !== "show") ctx.walker.markOpaque();
  },
};

function handleGit(args: Arg[], ctx: CommandContext): void {
  let i = 0;
  let dir: string | undefined;
  for (; i < args.length; i++) {
    const arg = args[i];
    if (arg === null || arg === undefined) {
      ctx.walker.markOpaque();
      return;
    }
    if (!arg.startsWith("-")) break;
    if (!GIT_GLOBAL_VALUED.includes(arg)) continue;
    const value = args[++i];
    if (value === null) {
      ctx.walker.markOpaque();
      return;
    }
    if (arg === "-C" && value !== undefined) dir = dir === undefined ? value : posix.join(dir, value);
  }
  if (i >= args.length) return;
  const rest = args.slice(i);
  if (dir === undefined) {
    runGitSubcommand(rest, ctx);
    return;
  }
  withDirectory(dir, ctx, (inner) => runGitSubcommand(rest, inner));
}

function runGitSubcommand([sub, ...args]: Arg[], ctx: CommandContext): void {
  if (sub === null || sub === undefined) {
    ctx.walker.markOpaque();
    return;
  }
  if (GIT_READ_ONLY.has(sub)) {
    // `git diff --output=FILE` and friends write a file of their own.
    if (args.some((arg) => arg?.startsWith("--output"))) ctx.walker.markOpaque();
    return;
  }
  const handler = GIT_HANDLERS[sub];
  if (handler) {
    handler(args, ctx);
    return;
  }
  ctx.walker.markOpaque(); // switch, merge, rebase, pull, clean, apply …
}

function gitCheckout(args: Arg[], ctx: CommandContext): void {
  const separator = args.indexOf("--");
  if (args.some((arg) => arg?.startsWith("--pathspec-from-file"))) ctx.walker.markOpaque();
  if (separator !== -1) {
    addAll(ctx, args.slice(separator + 1));
    return;
  }
  const parsed = parseArgs(args, { valued: "bB", long: ["--orphan", "--conflict"] });
  // `git checkout X` switches branches or restores a path: we cannot tell which.
  ctx.walker.markOpaque();
  if (!has(parsed, "-b", "-B", "--orphan", "--detach")) addAll(ctx, parsed.operands.slice(1));
}

function gitRestore(args: Arg[], ctx: CommandContext): void {
  const parsed = parseArgs(args, { valued: "s", long: ["--source"] });
  if (has(parsed, "--pathspec-from-file")) ctx.walker.markOpaque();
  const stagedOnly = has(parsed, "-S", "--staged") && !has(parsed, "-W", "--worktree");
  if (!stagedOnly) addAll(ctx, parsed.operands);
}

function gitRm(args: Arg[], ctx: CommandContext): void {
  const parsed = parseArgs(args);
  if (has(parsed, "--pathspec-from-file")) ctx.walker.markOpaque();
  if (has(parsed, "--cached", "-n", "--dry-run")) return;
  addAll(ctx, parsed.operands);
}

// --- Wrappers: commands that run another command --------------------------------

/**
 * Splits a wrapper's own options from the command it runs. Wrappers stop at their
 * first operand (the command), so there is no permutation here.
 */
function splitOptions(args: Arg[], spec: OptionSpec): { options: Arg[]; rest: Arg[] } {
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i];
    if (arg === null || arg === undefined || arg === "-" || !arg.startsWith("-")) break;
    if (arg === "--") return { options: args.slice(0, i), rest: args.slice(i + 1) };
    if (takesValue(arg, spec)) i++;
  }
  return { options: args.slice(0, i), rest: args.slice(i) };
}

/** Whether an option argument leaves its value to the next argument. */
function takesValue(arg: string, spec: OptionSpec): boolean {
  if (arg.startsWith("--")) return !arg.includes("=") && (spec.long?.includes(arg) ?? false);
  for (let j = 1; j < arg.length; j++) {
    if (spec.valued?.includes(arg[j]!)) return j === arg.length - 1;
  }
  return false;
}

/** A command that runs the command in its operands (`nohup cmd`, `nice -n 5 cmd` …). */
function wrapper(spec: OptionSpec & { skipOperands?: number } = {}): Handler {
  return (args, ctx) => {
    const rest = splitOptions(args, spec).rest.slice(spec.skipOperands ?? 0);
    if (rest.length > 0) runCommand(rest, ctx);
  };
}

const ENV_SPEC: OptionSpec = { valued: "uCS", long: ["--unset", "--chdir", "--split-string"] };

function handleEnv(args: Arg[], ctx: CommandContext): void {
  const { options, rest } = splitOptions(args, ENV_SPEC);
  const parsed = parseArgs(options, ENV_SPEC);
  // `env -S 'cmd args'` splits a string into a command line: too dynamic to follow.
  if (parsed.dynamic || has(parsed, "-S", "--split-string")) {
    ctx.walker.markOpaque();
    return;
  }
  const start = rest.findIndex((arg) => arg === null || !/^[A-Za-z_][A-Za-z0-9_]*=/.test(arg));
  if (start === -1) return; // `env [NAME=VALUE…]` only prints the environment
  const command = rest.slice(start);
  const dir = values(parsed, "-C", "--chdir").at(-1);
  if (dir === undefined) {
    runCommand(command, ctx);
    return;
  }
  withDirectory(dir, ctx, (inner) => runCommand(command, inner));
}

function handleCommand(args: Arg[], ctx: CommandContext): void {
  // `command -v NAME` only looks the name up.
  if (args.some((arg) => arg === "-v" || arg === "-V")) return;
  wrapper()(args, ctx);
}

const TIME_SPEC: OptionSpec = { valued: "fo", long: ["--output", "--format"] };

/** `/usr/bin/time -o FILE cmd` also writes its report to FILE. */
function handleTime(args: Arg[], ctx: CommandContext): void {
  const { options, rest } = splitOptions(args, TIME_SPEC);
  addAll(ctx, values(parseArgs(options, TIME_SPEC), "-o", "--output"));
  if (rest.length > 0) runCommand(rest, ctx);
}

const SUDO_SPEC: OptionSpec = {
  valued: "gChprtTUuD",
  long: ["--user", "--group", "--chdir", "--prompt", "--host", "--role", "--type", "--close-from"],
};

function handleSudo(args: Arg[], ctx: CommandContext): void {
  const { options, rest } = splitOptions(args, SUDO_SPEC);
  const parsed = parseArgs(options, SUDO_SPEC);
  // `sudo -e FILE…` (sudoedit) edits the files; -l, -v and -k run nothing.
  if (has(parsed, "-e", "--edit")) {
    addAll(ctx, rest);
    return;
  }
  if (has(parsed, "-l", "--list", "-v", "--validate", "-k", "-K")) return;
  if (rest.length > 0) runCommand(rest, ctx);
}

const opaque: Handler = (_args, ctx) => ctx.walker.markOpaque();

/** npm / pnpm / yarn subcommands that do not change the project's files. */
const PACKAGE_MANAGER_READ_ONLY = new Set(
  "test t tst ls list view info outdated help why explain whoami ping root prefix bin audit".split(" "),
);

function handlePackageManager(args: Arg[], ctx: CommandContext): void {
  const sub = args.find((arg) => arg === null || !arg.startsWith("-"));
  if (sub === null || sub === undefined || !PACKAGE_MANAGER_READ_ONLY.has(sub)) ctx.walker.markOpaque();
  if (sub === "audit" && args.includes("fix")) ctx.walker.markOpaque();
}

const HANDLERS: Record<string, Handler> = {
  rm: operandsWritten(),
  rmdir: operandsWritten(),
  unlink: operandsWritten(),
  shred: operandsWritten({ valued: "nsu", long: ["--iterations", "--size", "--remove"] }),
  touch: operandsWritten({ valued: "drt", long: ["--date", "--reference"] }),
  mkdir: operandsWritten({ valued: "m", long: ["--mode"] }),
  mkfifo: operandsWritten({ valued: "m", long: ["--mode"] }),
  tee: operandsWritten(),
  truncate: operandsWritten({ valued: "sr", long: ["--size", "--reference"] }),
  mv: handleMv,
  cp: destinationWritten(MOVE_SPEC),
  ln: destinationWritten(MOVE_SPEC, (target) => (target === null ? null : posix.basename(target))),
  install: handleInstall,
  sed: handleSed,
  perl: handlePerl,
  chmod: handleChmod,
  chown: handleChown,
  chgrp: handleChown,
  dd: handleDd,
  sort: handleSort,
  uniq: handleUniq,
  find: handleFind,
  git: handleGit,
  apply_patch: handleApplyPatch,
  applypatch: handleApplyPatch,
  patch: opaque,
  eval: opaque,
  source: opaque,
  ".": opaque,
  xargs: opaque,
  trap: opaque,
  bash: handleShell,
  sh: handleShell,
  dash: handleShell,
  zsh: handleShell,
  ksh: handleShell,
  cd: handleCd,
  pushd: handlePushd,
  popd: handlePopd,
  env: handleEnv,
  command: handleCommand,
  builtin: wrapper(),
  exec: wrapper({ valued: "a" }),
  nohup: wrapper(),
  nice: wrapper({ valued: "n", long: ["--adjustment"] }),
  time: handleTime,
  timeout: wrapper({ valued: "sk", long: ["--signal", "--kill-after"], skipOperands: 1 }),
  stdbuf: wrapper({ valued: "ioe", long: ["--input", "--output", "--error"] }),
  sudo: handleSudo,
  doas: wrapper({ valued: "uC" }),
  npm: handlePackageManager,
  pnpm: handlePackageManager,
  yarn: handlePackageManager,
};
