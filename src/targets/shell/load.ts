/**
 * Loading mvdan-sh (docs/decisions/0003-shell-parser.md): on the first shell command
 * only, from outside the bundle, with the globals GopherJS sets put back, and with
 * its operator numbers learned from a calibration parse.
 */
import { join } from "node:path";
import { type Loaded, loadWithCodeCache } from "../../code-cache.js";
import type { ShBinaryCmd, ShFile, ShSyntax } from "./syntax.js";

interface ShModule {
  syntax?: ShSyntax;
  default?: { syntax?: ShSyntax };
}

export interface Parser {
  syntax: ShSyntax;
  parse(src: string): ShFile;
  /** mvdan-sh exposes operators as Go token numbers; we learn their spelling at load. */
  redirOps: Map<number, string>;
  pipeOps: Set<number>;
  andOp: number;
  orOp: number;
}

let parserInstance: Promise<Parser> | undefined;

export function loadParser(): Promise<Parser> {
  parserInstance ??= importParser();
  return parserInstance;
}

/**
 * Loads mvdan-sh on first use, from the package's node_modules at run time: the
 * specifier is not a string literal, so esbuild leaves the 1.5 MB parser out of the
 * bundle that every hook process reads. The CommonJS bundle loads it as `require`
 * would (~100 ms faster than `import()`, which scans the whole file for ESM exports),
 * through V8's code cache kept beside the bundle (compiling it was ~50 ms of ~120);
 * ESM callers such as the tests fall back to `import()`.
 */
async function importParser(): Promise<Parser> {
  const specifier = "mvdan-sh";
  const stackTraceLimit = Error.stackTraceLimit;
  const hadGlobalRequire = Object.hasOwn(globalThis, "require");
  let loaded: Loaded<ShModule> | undefined;
  if (fromBundle()) {
    loaded = loadWithCodeCache(require.resolve(specifier), "parser", join(__dirname, "mvdan-sh.v8cache"));
  }
  const mod = loaded?.exports ?? ((await import(specifier)) as ShModule);
  // Undo the globals GopherJS sets on load (see withGoStacks).
  Error.stackTraceLimit = stackTraceLimit;
  if (!hadGlobalRequire) Reflect.deleteProperty(globalThis, "require");
  const syntax = mod.syntax ?? mod.default?.syntax;
  if (!syntax) throw new Error("mvdan-sh did not load");
  const shParser = syntax.NewParser();
  const parse = (src: string) => shParser.Parse(src, "");
  const parser = withGoStacks(() => ({
    syntax,
    parse,
    redirOps: learnRedirOps(parse),
    pipeOps: new Set([binaryOp(parse, "a | b"), binaryOp(parse, "a |& b")]),
    andOp: binaryOp(parse, "a && b"),
    orOp: binaryOp(parse, "a || b"),
  }));
  loaded?.save(); // after the calibration parses, so the cache holds the parser's hot functions
  return parser;
}

/** Running from our CommonJS bundle in dist/ (not from source under a test runner). */
function fromBundle(): boolean {
  return typeof require === "function" && typeof __filename === "string" && __filename.endsWith(".cjs");
}

function learnRedirOps(parse: (src: string) => ShFile): Map<number, string> {
  const spelled = [">", ">>", ">|", "&>", "&>>", "<>", ">&", "<&", "<<<", "<", "<<", "<<-"];
  const redirs = parse(": >a >>a >|a &>a &>>a <>a >&a <&a <<<a <a <<A <<-B\nA\n\tB\n").Stmts[0]!.Redirs;
  return new Map(redirs.map((r, i) => [r.Op, spelled[i]!]));
}

function binaryOp(parse: (src: string) => ShFile, src: string): number {
  return (parse(src).Stmts[0]!.Cmd as ShBinaryCmd).Op;
}

/**
 * GopherJS sets `Error.stackTraceLimit = Infinity` when it loads and counts stack
 * frames for panic/recover, so Go code gets full stacks while it runs and the rest
 * of the process keeps its own limit.
 */
export function withGoStacks<T>(run: () => T): T {
  const saved = Error.stackTraceLimit;
  Error.stackTraceLimit = Number.POSITIVE_INFINITY;
  try {
    return run();
  } finally {
    Error.stackTraceLimit = saved;
  }
}

export function parseErrorMessage(err: unknown): string {
  // GopherJS throws Go error values: an object with an Error() method.
  if (err && typeof (err as { Error?: unknown }).Error === "function")
    return (err as { Error(): string }).Error();
  return err instanceof Error ? err.message : String(err);
}
