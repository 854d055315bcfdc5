/**
 * The Go WebAssembly build (main.go) as the shell reader's parser: what step 2 of decision 0033's
 * exit plan puts in src/targets/shell/load.ts. Only the bench uses it (go-parser.setup.ts), from
 * bench/.candidates (setup.sh), to run the shell target tables and time the extractor with it.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Parser } from "../../../src/targets/shell/load.js";
import type { ShBinaryCmd, ShFile, ShNode, ShSyntax } from "../../../src/targets/shell/syntax.js";

const dir = new URL("../../.candidates/go-wasm/", import.meta.url).pathname;

interface GoRuntime {
  importObject: WebAssembly.Imports;
  run(instance: WebAssembly.Instance): void;
}

export async function loadGoParser(): Promise<Parser> {
  createRequire(dir)(`${dir}wasm_exec.js`); // Go's glue: defines globalThis.Go
  const go = new (globalThis as unknown as { Go: new () => GoRuntime }).Go();
  const { instance } = await WebAssembly.instantiate(readFileSync(`${dir}sh.wasm`), go.importObject);
  go.run(instance);
  const call = (globalThis as unknown as { tandemShParse: (src: string) => string }).tandemShParse;
  const parse = (src: string): ShFile => {
    // Positions arrive as offsets; the walker asks a WordIter's InPos for Offset().
    const tree = JSON.parse(call(src), (key, value) =>
      key === "InPos" ? { Offset: () => value as number } : value,
    ) as ShFile & { error?: string };
    if (tree.error !== undefined) throw new Error(tree.error);
    return tree;
  };
  const syntax: ShSyntax = {
    NewParser: () => ({ Parse: (src: string) => parse(src) }),
    NodeType: (node) => (node as unknown as { $: string }).$,
    Walk: (node, visit) => walk(node, visit),
  };
  const binaryOp = (src: string) => (parse(src).Stmts[0]!.Cmd as ShBinaryCmd).Op;
  const spelled = [">", ">>", ">|", "&>", "&>>", "<>", ">&", "<&", "<<<", "<", "<<", "<<-"];
  const redirs = parse(": >a >>a >|a &>a &>>a <>a >&a <&a <<<a <a <<A <<-B\nA\n\tB\n").Stmts[0]!.Redirs;
  return {
    syntax,
    parse,
    redirOps: new Map(redirs.map((r, i) => [r.Op, spelled[i]!])),
    pipeOps: new Set([binaryOp("a | b"), binaryOp("a |& b")]),
    andOp: binaryOp("a && b"),
    orOp: binaryOp("a || b"),
  };
}

function walk(node: unknown, visit: (node: ShNode | null) => boolean): void {
  if (Array.isArray(node)) for (const child of node) walk(child, visit);
  else if (node && typeof node === "object") {
    if ("$" in node && !visit(node as ShNode)) return;
    for (const [key, value] of Object.entries(node))
      if (key !== "$" && typeof value === "object") walk(value, visit);
  }
}
