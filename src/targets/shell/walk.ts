/**
 * Walking the statement tree: lists, pipelines, subshells, compound commands,
 * functions and `$(…)`, tracking the directory each part runs in, and collecting
 * the write targets that redirections and commands report.
 */
import { posix } from "node:path";
import { parsePatchTargets, writePaths } from "../apply-patch.js";
import { commandHandler } from "./commands.js";
import { placeTarget, type Scope } from "./cwd.js";
import type { CommandContext } from "./handler.js";
import type { ShellTargets } from "./index.js";
import type { Parser } from "./load.js";
import { heredocBody, walkRedirect } from "./redirects.js";
import type {
  ShBinaryCmd,
  ShCallExpr,
  ShCaseClause,
  ShFile,
  ShForClause,
  ShFuncDecl,
  ShIfClause,
  ShInnerStmt,
  ShNode,
  ShStmt,
  ShStmtList,
  ShWhileClause,
  ShWord,
} from "./syntax.js";
import { type Arg, isPlainWord, staticWord } from "./words.js";

/** How deep `bash -c` scripts may nest before the rest is opaque. */
const MAX_NESTING = 4;

export class Walker {
  private readonly writes = new Set<string>();
  private readonly patches: string[] = [];
  private opaque = false;
  private readonly functions = new Set<string>();
  private nesting = 0;

  constructor(
    readonly parser: Parser,
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
    for (const redir of stmt.Redirs) walkRedirect(this, redir, scope);
    if (stmt.Cmd) this.walkCommand(stmt.Cmd, stmt, scope);
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
    const argv = call.Args.map((word) => staticWord(this.parser.syntax, word, this.home));
    this.runCommand(argv, { walker: this, scope, heredoc: heredocBody(this.parser, stmt) });
  }

  /** Judges one command line; wrappers (`sudo cmd`, `env cmd` …) call back here for theirs. */
  runCommand(argv: Arg[], ctx: CommandContext): void {
    const [name, ...args] = argv;
    if (name === null || name === undefined) {
      this.markOpaque();
      return;
    }
    // `/usr/bin/rm` is `rm`; `./build.sh` stays unknown.
    const command = name.startsWith("/") ? posix.basename(name) : name;
    if (this.functions.has(command)) return;
    commandHandler(command)(args, ctx);
  }

  /** Like walkSubstitutions, skipping the costly generic walk for words of literals and quotes. */
  walkWordSubstitutions(word: ShWord, scope: Scope): void {
    if (!isPlainWord(this.parser.syntax, word)) this.walkSubstitutions(word, scope);
  }

  /** Runs the commands inside `$(…)`, backquotes and `<(…)` found anywhere under `node`. */
  private walkSubstitutions(node: ShNode, scope: Scope): void {
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
  wordArg(word: ShWord, scope: Scope): Arg {
    this.walkWordSubstitutions(word, scope);
    return staticWord(this.parser.syntax, word, this.home);
  }

  addTarget(path: Arg, scope: Scope): void {
    if (path === "") return;
    const placed = path === null ? null : placeTarget(path, scope);
    if (placed === null) this.markOpaque();
    else if (!isSpecialFile(placed)) this.writes.add(placed);
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

  expandHome(path: string): string {
    return path === "~" ? this.home : path.startsWith("~/") ? this.home + path.slice(1) : path;
  }
}

function isSpecialFile(path: string): boolean {
  return path.startsWith("/dev/") || path.startsWith("/proc/self/fd/");
}
