/**
 * Walking the statement tree: lists, `&&` / `||`, pipelines, subshells, functions
 * and `$(…)` (compound commands in compound.ts), following the shell's state
 * (directory and variables) along every path, and handing each command line to
 * its handler.
 */
import { applyAssigns, applyDecl, prefixEnv, readAssignments, readDeclaration } from "./assign.js";
import { commandHandler } from "./commands.js";
import { type StatementWalker, walkCase, walkFor, walkIf, walkWhile } from "./compound.js";
import type { Expander } from "./expand.js";
import { expansionsIn } from "./expansions.js";
import { Findings } from "./findings.js";
import { andThen, either, negate, type Outcome, orElse, same } from "./flow.js";
import type { Parser } from "./load.js";
import { NeedsFullParser } from "./quick-parse.js";
import { heredocBody, isDescriptor, redirectKind } from "./redirects.js";
import { forgetVars, LOST, mergeScopes, restoreVars, withEnv } from "./scope.js";
import type {
  ShBinaryCmd,
  ShCallExpr,
  ShCaseClause,
  ShDeclClause,
  ShFile,
  ShForClause,
  ShFuncDecl,
  ShIfClause,
  ShInnerStmt,
  ShNode,
  ShRedirect,
  ShStmt,
  ShStmtList,
  ShWhileClause,
  ShWord,
} from "./syntax.js";
import type { Tree } from "./tree.js";
import type { Arg, CdOption, CommandContext, Runner, Scope } from "./types.js";
import { isPlainWord } from "./words.js";

/** How deep `bash -c` scripts and function calls may nest before the rest is opaque. */
const MAX_NESTING = 4;

/** Walks one command's tree; what it finds is kept by the Findings it extends. */
export class Walker extends Findings implements Runner, StatementWalker {
  private readonly functions = new Map<string, ShStmt>();
  private readonly scripts = new Map<string, ShFile>();
  private nesting = 0;
  /** For each loop and function being walked, the states `break` / `continue` / `return` left it in. */
  private readonly exits: Scope[][] = [];
  /** For each function being walked, the names it made local. */
  private readonly locals: Set<string>[] = [];
  /** What the last command printed when known (`echo .`), and a pipe's left side's, for its right. */
  private output: string | null = null;
  private pipeInput: string | undefined;

  constructor(
    private readonly parser: Parser,
    readonly tree: Tree,
    private readonly words: Expander,
  ) {
    super();
  }

  get home(): string {
    return this.words.home;
  }

  readonly cdOptions = new Set<CdOption>();

  setCdOption(option: CdOption): void {
    this.cdOptions.add(option);
  }

  lookup(scope: Scope, name: string): Arg {
    return this.words.lookup(scope, name);
  }

  directory(scope: Scope): string | null {
    return this.words.directory(scope);
  }

  stopGlobbing(): void {
    this.words.stopGlobbing();
  }

  forgetVariables(): void {
    this.words.forgetVariables();
  }

  setOutput(text: string): void {
    this.output = text;
  }

  leaveBlock(scope: Scope): void {
    for (const frame of this.exits) frame.push(scope);
  }

  withExits(pass: () => Scope[]): Scope[] {
    this.exits.push([]);
    const ends = pass();
    return [...ends, ...this.exits.pop()!];
  }

  fields(word: ShWord, scope: Scope): Arg[] {
    return this.words.fields(word, scope).args;
  }

  walkFile(file: ShFile, scope: Scope): void {
    this.walkStmts(this.tree.read(file, "Stmts"), scope);
  }

  walkStmts(stmts: ShStmt[], scope: Scope): Outcome {
    let outcome = same(scope);
    for (const stmt of stmts) outcome = this.walkStmt(stmt, either(outcome));
    return outcome;
  }

  private walkStmt(stmt: ShStmt, outer: Scope): Outcome {
    const { tree } = this;
    let scope = outer;
    for (const redir of tree.read(stmt, "Redirs")) scope = this.walkRedirect(redir, scope);
    const cmd = tree.read(stmt, "Cmd");
    const outcome = cmd ? this.walkCommand(cmd, stmt, scope) : same(scope);
    // A background job or coprocess runs in a subshell: its `cd` stays there.
    if (tree.read(stmt, "Background") || tree.read(stmt, "Coprocess")) return same(outer);
    return tree.read(stmt, "Negated") ? negate(outcome) : outcome;
  }

  private walkCommand(cmd: ShNode, stmt: ShStmt, scope: Scope): Outcome {
    const { tree } = this;
    const type = tree.type(cmd);
    switch (type) {
      case "CallExpr":
        return this.walkCall(cmd as ShCallExpr, stmt, scope);
      case "BinaryCmd":
        return this.walkBinary(cmd as ShBinaryCmd, scope);
      case "Subshell":
        this.walkStmts(tree.read(cmd as ShStmtList, "Stmts"), scope);
        return same(scope);
      case "Block":
        return this.walkStmts(tree.read(cmd as ShStmtList, "Stmts"), scope);
      case "IfClause":
        return walkIf(this, cmd as ShIfClause, scope);
      case "WhileClause":
        return walkWhile(this, cmd as ShWhileClause, scope);
      case "ForClause":
        return walkFor(this, cmd as ShForClause, scope);
      case "CaseClause":
        return walkCase(this, cmd as ShCaseClause, scope);
      case "FuncDecl": {
        // The body is walked where the function is called, with the state there.
        const name = tree.read(tree.read(cmd as ShFuncDecl, "Name"), "Value");
        this.functions.set(name, tree.read(cmd as ShFuncDecl, "Body"));
        return same(scope);
      }
      case "TimeClause":
      case "CoprocClause": {
        const inner = tree.read(cmd as ShInnerStmt, "Stmt");
        const outcome = inner ? this.walkStmt(inner, scope) : same(scope);
        return type === "TimeClause" ? outcome : same(scope);
      }
      case "DeclClause":
        return same(this.walkDecl(cmd as ShDeclClause, scope));
      case "LetClause":
      case "TestClause":
      case "ArithmCmd":
        // Tests and arithmetic write no files, but `$(…)` inside them runs commands.
        return same(this.walkExpansions(cmd, scope));
      default:
        this.markOpaque();
        return same(this.walkExpansions(cmd, scope));
    }
  }

  private walkBinary(cmd: ShBinaryCmd, scope: Scope): Outcome {
    const { tree } = this;
    const op = tree.read(cmd, "Op");
    const [left, right] = [tree.read(cmd, "X"), tree.read(cmd, "Y")];
    if (this.parser.pipeOps.has(op)) {
      // Every part of a pipeline runs in its own subshell; a lone `echo`'s output is known.
      this.output = null;
      this.walkStmt(left, scope);
      const cmd = tree.read(left, "Cmd");
      const lone = cmd !== null && tree.type(cmd) === "CallExpr" && tree.read(left, "Redirs").length === 0;
      this.pipeInput = lone ? (this.output ?? undefined) : undefined;
      this.walkStmt(right, scope);
      this.pipeInput = undefined;
      return same(scope);
    }
    const x = this.walkStmt(left, scope);
    const y = (start: Scope) => this.walkStmt(right, start);
    return op === this.parser.orOp ? orElse(x, y) : andThen(x, y);
  }

  private walkCall(call: ShCallExpr, stmt: ShStmt, scope: Scope): Outcome {
    const { tree } = this;
    const stdin = this.pipeInput;
    this.pipeInput = undefined;
    const assigns = tree.memo(call, "assigns", () => readAssignments(tree, tree.read(call, "Assigns")));
    const words = tree.read(call, "Args");
    let start = scope;
    for (const assign of assigns) {
      start =
        assign.value && !assign.array
          ? this.walkWord(assign.value, start)
          : this.walkExpansions(assign.node, start);
    }
    for (const word of words) start = this.walkWord(word, start);
    if (words.length === 0) return same(applyAssigns(this.words, assigns, start));
    const argv: Arg[] = [];
    let countKnown = true;
    for (const word of words) {
      const fields = this.words.fields(word, start);
      argv.push(...fields.args);
      countKnown &&= fields.exact;
    }
    const ctx: CommandContext = {
      walker: this,
      scope: start,
      env: prefixEnv(this.words, assigns, start),
      heredoc: heredocBody(this.parser, tree, stmt),
      countKnown,
      ...(stdin === undefined ? {} : { stdin }),
    };
    // Only a command called by its name runs a function; `env f`, `sudo f`, `command f` run a program.
    const body = typeof argv[0] === "string" ? this.functions.get(argv[0]) : undefined;
    this.output = null; // set again by the command itself when it is a static `echo`
    if (body) this.callFunction(body, ctx);
    else this.runCommand(argv, ctx);
    if (body) this.output = null; // a function's output is not one command's
    return same(ctx.scope);
  }

  runCommand(argv: Arg[], ctx: CommandContext): void {
    const [name, ...args] = argv;
    if (name === null) this.markOpaque();
    if (name === null || name === undefined) return; // undefined: every word expanded to nothing
    commandHandler(name)(args, ctx);
  }

  /** A function runs in the caller's shell: its `cd` and assignments stay, its locals do not. */
  private callFunction(body: ShStmt, ctx: CommandContext): void {
    if (this.nesting >= MAX_NESTING) {
      this.markOpaque();
      ctx.scope = LOST;
      return;
    }
    const before = ctx.scope;
    this.nesting++;
    this.locals.push(new Set(ctx.env.keys()));
    const start = { ...before, vars: withEnv(before.vars, ctx.env) };
    const end = this.withExits(() => [either(this.walkStmt(body, start))]).reduce(mergeScopes);
    const locals = this.locals.pop()!;
    this.nesting--;
    ctx.scope = { cwd: end.cwd, vars: restoreVars(end.vars, before.vars, locals) };
  }

  private walkDecl(clause: ShDeclClause, scope: Scope): Scope {
    const declaration = readDeclaration(this.tree, clause);
    let start = scope;
    for (const assign of declaration.args) start = this.walkExpansions(assign.node, start);
    // `local` outside a function fails and assigns nothing.
    if (declaration.variant === "local" && this.locals.length === 0) return start;
    const declared = applyDecl(this.words, declaration, start);
    if (declared.nameref) this.forgetVariables();
    const frame = this.locals.at(-1);
    if (frame) for (const name of declared.locals) frame.add(name);
    return declared.scope;
  }

  private walkRedirect(redir: ShRedirect, outer: Scope): Scope {
    const { tree } = this;
    const hdoc = tree.read(redir, "Hdoc");
    const word = tree.read(redir, "Word");
    let scope = hdoc ? this.walkWord(hdoc, outer) : outer;
    if (!word) return scope;
    scope = this.walkWord(word, scope);
    const kind = redirectKind(this.parser, tree.read(redir, "Op"));
    if (kind === "read") return scope;
    const { args } = this.words.fields(word, scope);
    if (kind === "dup" && args.length === 1 && isDescriptor(args[0]!)) return scope;
    for (const path of args) this.addTarget(path, scope);
    return scope;
  }

  /** Like walkExpansions, skipping the costly generic walk for words of literals, quotes and `$X`. */
  walkWord(word: ShWord, scope: Scope): Scope {
    return isPlainWord(this.tree, word) ? scope : this.walkExpansions(word, scope);
  }

  /** Runs what expanding `node` runs (`$(…)`), and forgets what it may assign (`${F:=x}`). */
  walkExpansions(node: ShNode, scope: Scope): Scope {
    const { substitutions, assigned } = expansionsIn(this.tree, node);
    // A substitution runs in a subshell: its state stays there.
    for (const sub of substitutions) this.walkStmts(this.tree.read(sub, "Stmts"), scope);
    return assigned.size === 0 ? scope : { ...scope, vars: forgetVars(scope.vars, assigned) };
  }

  runScript(script: string, scope: Scope): Scope {
    let file: ShFile;
    try {
      if (this.nesting >= MAX_NESTING) throw new Error("nested too deep");
      // A loop body or function walked again hands in the same script: parse it once.
      file = this.scripts.get(script) ?? this.parser.parse(script);
      this.scripts.set(script, file);
    } catch (err) {
      if (err instanceof NeedsFullParser) throw err; // the quick walk gives way to mvdan-sh
      this.markOpaque();
      return LOST;
    }
    this.nesting++;
    try {
      return either(this.walkStmts(this.tree.read(file, "Stmts"), scope));
    } finally {
      this.nesting--;
    }
  }
}
