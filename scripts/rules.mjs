#!/usr/bin/env node
// The house's structural rules, checked over a source tree (issue 39): imports point down the tiers
// of docs/layers.txt, no file belongs to no room, no circle of imports, and the functional core
// (core/**) imports at run time nothing but itself, node:path and zod/mini, and only the store
// imports the SQLite driver or unwraps its handle (decision 0067).
// Usage: node scripts/rules.mjs [SRC_DIR] [--layers FILE]; exit 1 and one line a finding when broken.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** What a file of core/ may import at run time besides core itself (types are erased, so free). */
const CORE_MAY_IMPORT = new Set(["node:path", "node:path/posix", "zod/mini"]);

/**
 * What only src/store/ may import, even for types: the driver, and the file that unwraps the opaque
 * `Db` into the driver's connection. Elsewhere a `Db` has no `prepare`, so SQL does not compile.
 */
const STORE_ONLY_MODULES = new Set(["better-sqlite3"]);
const STORE_ONLY_FILES = new Set(["store/handle.ts"]);

/** The rooms of a layers file, top to bottom: one array of room names per tier. */
export function parseLayers(text) {
  return text
    .split("\n")
    .map((line) => line.replace(/#.*/, "").trim())
    .filter((line) => line !== "")
    .map((line) => line.split(/\s+/));
}

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|cts)$/.test(name) && !/\.d\.ts$/.test(name) ? [path] : [];
  });
}

// `import x from "m"`, `import type {…} from "m"`, `export * from "m"`, `import "m"`, `import("m")`.
const STATIC = /(?:^|[;\s])(import|export)\s+(type\s+)?(?:[\w*${}\s,]*?\s*from\s*)?["']([^"']+)["']/g;
const DYNAMIC = /import\(\s*["']([^"']+)["']\s*\)/g;

function withoutComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

/** Each import of a file's text: its specifier and whether it survives compilation. */
export function importsOf(text) {
  const code = withoutComments(text);
  const out = [];
  for (const m of code.matchAll(STATIC)) out.push({ spec: m[3], runtime: m[2] === undefined });
  for (const m of code.matchAll(DYNAMIC)) out.push({ spec: m[1], runtime: true });
  return out;
}

function resolveRelative(from, spec) {
  if (!spec.startsWith(".")) return null;
  const base = resolve(dirname(from), spec).replace(/\.(c|m)?js$/, "");
  for (const cand of [`${base}.ts`, `${base}.mts`, `${base}.cts`, join(base, "index.ts")]) {
    if (existsSync(cand)) return cand;
  }
  return null;
}

/** The room a file (relative to src, `/`-separated) belongs to: the longest room naming it. */
export function roomOf(rel, rooms) {
  let best = null;
  for (const room of rooms) {
    const hit = rel === room || rel.startsWith(`${room}/`) || rel.replace(/\.[cm]?ts$/, "") === room;
    if (hit && (best === null || room.length > best.length)) best = room;
  }
  return best;
}

/** Circles in the import graph (Tarjan): each strongly connected set of more than one file. */
function circles(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) !== idx.get(v)) return;
    const set = [];
    let w;
    do {
      w = stack.pop();
      on.delete(w);
      set.push(w);
    } while (w !== v);
    if (set.length > 1) out.push(set.sort());
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

function edgeFinding(from, to, tierOf) {
  const [a, b] = [tierOf.get(from.room), tierOf.get(to.room)];
  if (from.room === to.room || a < b) return null;
  const rule = a === b ? "sideways" : "upward";
  return { rule, file: from.rel, detail: `${from.room} imports ${to.room} (${to.rel})` };
}

function coreFinding(file, imp, target, src) {
  if (!imp.runtime) return null;
  if (target !== null) {
    const rel = relative(src, target).split(sep).join("/");
    return rel.startsWith("core/") ? null : { rule: "core-purity", file, detail: `imports ${rel}` };
  }
  if (imp.spec.startsWith(".") || CORE_MAY_IMPORT.has(imp.spec)) return null;
  return { rule: "core-purity", file, detail: `imports ${imp.spec}` };
}

function storeFinding(from, imp, target, src) {
  if (from.room === "store" || from.room?.startsWith("store/")) return null;
  const rel = target === null ? null : relative(src, target).split(sep).join("/");
  if (!STORE_ONLY_MODULES.has(imp.spec) && !STORE_ONLY_FILES.has(rel)) return null;
  const what = rel ?? imp.spec;
  return {
    rule: "store-private",
    file: from.rel,
    detail: `imports ${what}: call a function of src/store/ instead`,
  };
}

/** Every finding over `src` given the tiers: a typed list, empty when the tree keeps the rules. */
export function checkRules(src, tiers) {
  const rooms = tiers.flat();
  const tierOf = new Map(tiers.flatMap((line, i) => line.map((room) => [room, i])));
  const files = sourceFiles(src);
  const node = (path) => {
    const rel = relative(src, path).split(sep).join("/");
    return { rel, room: roomOf(rel, rooms) };
  };
  const findings = [];
  const graph = new Map(files.map((f) => [f, new Set()]));
  for (const file of files) {
    const from = node(file);
    if (from.room === null)
      findings.push({ rule: "no-room", file: from.rel, detail: "in no room of layers.txt" });
    for (const imp of importsOf(readFileSync(file, "utf8"))) {
      const target = resolveRelative(file, imp.spec);
      if (from.room?.startsWith("core")) {
        const f = coreFinding(from.rel, imp, target, src);
        if (f) findings.push(f);
      }
      const privacy = storeFinding(from, imp, target, src);
      if (privacy) findings.push(privacy);
      if (target === null || !graph.has(target) || target === file) continue;
      graph.get(file).add(target);
      const to = node(target);
      const f = from.room && to.room ? edgeFinding(from, to, tierOf) : null;
      if (f) findings.push(f);
    }
  }
  for (const set of circles(graph)) {
    const names = set.map((f) => relative(src, f).split(sep).join("/"));
    findings.push({ rule: "circle", file: names[0], detail: `a circle of ${names.join(" → ")}` });
  }
  return { files: files.length, tiers: tiers.length, findings };
}

function main(argv) {
  const at = argv.indexOf("--layers");
  const src = resolve(argv.find((a, i) => !a.startsWith("--") && i !== at + 1) ?? "src");
  const layers = at >= 0 ? resolve(argv[at + 1]) : join(src, "..", "docs", "layers.txt");
  const result = checkRules(src, parseLayers(readFileSync(layers, "utf8")));
  for (const f of result.findings) console.log(`${f.rule}: ${f.file}: ${f.detail}`);
  const summary = `${result.files} files in ${result.tiers} tiers; ${result.findings.length} finding(s)`;
  console.log(result.findings.length === 0 ? `rules hold: ${summary}` : summary);
  return result.findings.length === 0 ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
