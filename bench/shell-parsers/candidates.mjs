// The shell parsers under comparison (docs/decisions/0033-shell-parser-kept-pinned.md). Each
// loads the way the hook would load it and offers parse(src) (what the extractor's walker
// needs: a tree it can read from JS, or { error }) and read(src, tree) (reading.mjs).
// web-tree-sitter and the Go WASM build live in bench/.candidates (git-ignored): see setup.sh.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";
import { readShTree, readTreeSitter } from "./reading.mjs";

const repoRequire = createRequire(new URL("../../package.json", import.meta.url));
const candidatesDir = fileURLToPath(new URL("../.candidates/", import.meta.url));
const candidateRequire = createRequire(`${candidatesDir}package.json`);

export const CANDIDATES = {
  "mvdan-sh": () => loadMvdanSh(() => ({ exports: repoRequire("mvdan-sh"), save() {} })),
  "mvdan-sh, V8 code cache": () => loadMvdanSh(withCodeCache),
  "tree-sitter": loadTreeSitter,
  "go-wasm": loadGoWasm,
};

/**
 * mvdan-sh 0.10.1 (GopherJS), required as the CommonJS bundle requires it, or as the hook loads it
 * (decision 0010): compiled through a V8 code cache written after the first load's calibration.
 */
async function loadMvdanSh(load) {
  const loaded = load();
  const { syntax } = loaded.exports;
  const parser = syntax.NewParser();
  const parse = (src) => {
    try {
      return parser.Parse(src, "");
    } catch (err) {
      return { error: typeof err?.Error === "function" ? err.Error() : String(err) };
    }
  };
  // Operators are Go token numbers in this build: learn their spelling (as src/targets/shell/load.ts does).
  const spelled = [">", ">>", ">|", "&>", "&>>", "<>", ">&", "<&", "<<<", "<", "<<", "<<-"];
  const redirs = parse(": >a >>a >|a &>a &>>a <>a >&a <&a <<<a <a <<A <<-B\nA\n\tB\n").Stmts[0].Redirs;
  const redirOps = new Map(redirs.map((r, i) => [r.Op, spelled[i]]));
  const binaryOps = new Map(["&&", "||", "|", "|&"].map((op) => [parse(`a ${op} b`).Stmts[0].Cmd.Op, op]));
  loaded.save();
  const shape = {
    type: (n) => syntax.NodeType(n),
    pos: (n) => n.Pos().Offset(),
    end: (n) => n.End().Offset(),
    walk: (root, visit) =>
      syntax.Walk(root, (n) => {
        if (n) visit(n);
        return true;
      }),
    redirOp: (op) => redirOps.get(op),
    binaryOp: (op) => binaryOps.get(op),
  };
  return { parse, read: (src, tree) => readShTree(src, tree, shape) };
}

function withCodeCache() {
  const file = repoRequire.resolve("mvdan-sh");
  const cacheFile = `${candidatesDir}mvdan-sh.v8cache`;
  let cached;
  try {
    cached = readFileSync(cacheFile);
  } catch {
    cached = undefined;
  }
  const script = new Script(Module.wrap(readFileSync(file, "utf8")), { filename: file, cachedData: cached });
  const mod = { exports: {} };
  script.runInThisContext().call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file));
  const save = () => {
    if (cached && !script.cachedDataRejected) return;
    writeFileSync(`${cacheFile}.tmp`, script.createCachedData());
    renameSync(`${cacheFile}.tmp`, cacheFile);
  };
  return { exports: mod.exports, save };
}

/** web-tree-sitter + tree-sitter-bash: any ERROR or MISSING node fails closed. */
async function loadTreeSitter() {
  const { Parser, Language } = candidateRequire("web-tree-sitter");
  await Parser.init();
  const bash = await Language.load(candidateRequire.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
  const parser = new Parser();
  parser.setLanguage(bash);
  const parse = (src) => {
    const tree = parser.parse(src);
    if (!tree.rootNode.hasError) return tree;
    tree.delete();
    return { error: "tree-sitter: ERROR or MISSING node" };
  };
  const read = (_src, tree) => {
    const reading = readTreeSitter(tree.rootNode);
    tree.delete();
    return reading;
  };
  return { parse, read };
}

/** mvdan.cc/sh/v3 (Debian's golang-mvdan-sh-dev) built with GOOS=js GOARCH=wasm: go-wasm/main.go. */
async function loadGoWasm() {
  candidateRequire(`${candidatesDir}go-wasm/wasm_exec.js`);
  const go = new globalThis.Go();
  const wasm = readFileSync(`${candidatesDir}go-wasm/sh.wasm`);
  const { instance } = await WebAssembly.instantiate(wasm, go.importObject);
  go.run(instance);
  const parse = (src) => JSON.parse(globalThis.tandemShParse(src));
  const shape = {
    type: (n) => n.$,
    pos: (n) => n._pos,
    end: (n) => n._end,
    walk: walkJson,
    redirOp: (op) => op,
    binaryOp: (op) => op,
  };
  return { parse, read: (src, tree) => readShTree(src, tree, shape) };
}

function walkJson(node, visit) {
  if (Array.isArray(node)) for (const c of node) walkJson(c, visit);
  else if (node && typeof node === "object") {
    if (node.$) visit(node);
    for (const [key, value] of Object.entries(node))
      if (key !== "$" && typeof value === "object") walkJson(value, visit);
  }
}
