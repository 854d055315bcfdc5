// Shell parser candidates, measured (docs/decisions/0033-shell-parser-kept-pinned.md):
//   node bench/shell-parsers/run.mjs [rounds]
// Needs bench/.candidates (bench/shell-parsers/setup.sh); not part of `npm run bench`.
// Prints, per candidate: a fresh process's load + init + first parse (in-process, and wall
// time of the whole process minus `node -e 0`), per-command parse time over the commands of
// the shell target tables (corpus.json, collected by collect.sh), memory, the size of what
// it loads, and coverage: how many commands it reads as mvdan-sh 0.10.1 (the extractor's
// parser today) reads them, or fails closed on.
import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";

const ROUNDS = Number(process.argv[2] ?? 11);
const here = fileURLToPath(new URL(".", import.meta.url));
const measure = `${here}measure.mjs`;
const names = ["mvdan-sh", "tree-sitter", "go-wasm"];
const LOADED = {
  "mvdan-sh": ["../../node_modules/mvdan-sh/index.js"],
  "mvdan-sh, V8 code cache": ["../../node_modules/mvdan-sh/index.js", "../.candidates/mvdan-sh.v8cache"],
  "tree-sitter": [
    "../.candidates/node_modules/web-tree-sitter/web-tree-sitter.cjs",
    "../.candidates/node_modules/web-tree-sitter/web-tree-sitter.wasm",
    "../.candidates/node_modules/tree-sitter-bash/tree-sitter-bash.wasm",
  ],
  "go-wasm": ["../.candidates/go-wasm/sh.wasm", "../.candidates/go-wasm/wasm_exec.js"],
};

/** A fresh node process: its wall time, and its CPU time (user + system, all threads, from GNU time). */
function timed(args) {
  const r = spawnSync("/usr/bin/time", ["-f", "%e %U %S", process.execPath, ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`node ${args.join(" ")} failed: ${r.stderr}`);
  const [wall, user, sys] = r.stderr.trim().split("\n").at(-1).split(" ").map(Number);
  return { wallMs: wall * 1000, cpuMs: (user + sys) * 1000, out: r.stdout };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => x.toFixed(x < 1 ? 3 : 0);

// The code cache exists before the rounds, as it does after a hook's first shell command.
timed([measure, "load", "mvdan-sh, V8 code cache"]);
// Load: rounds interleaved with the baseline so machine load hits all alike. The WebAssembly
// candidates also run with --liftoff-only: without it V8 tiers the module up in the background
// and the process waits for that at exit (decision 0003); the flag is process-wide.
const variants = [
  ...names.map((name) => ({ label: name, name, flags: [] })),
  { label: "mvdan-sh, V8 code cache", name: "mvdan-sh, V8 code cache", flags: [] },
  { label: "tree-sitter, --liftoff-only", name: "tree-sitter", flags: ["--liftoff-only"] },
  { label: "go-wasm, --liftoff-only", name: "go-wasm", flags: ["--liftoff-only"] },
];
const walls = Object.fromEntries([["node -e 0", []], ...variants.map((v) => [v.label, []])]);
const cpus = Object.fromEntries([["node -e 0", []], ...variants.map((v) => [v.label, []])]);
const inProc = Object.fromEntries(variants.map((v) => [v.label, []]));
for (let round = 0; round < ROUNDS; round++) {
  const baseline = timed(["-e", "0"]);
  walls["node -e 0"].push(baseline.wallMs);
  cpus["node -e 0"].push(baseline.cpuMs);
  for (const v of variants) {
    const { wallMs, cpuMs, out } = timed([...v.flags, measure, "load", v.name]);
    walls[v.label].push(wallMs);
    cpus[v.label].push(cpuMs);
    inProc[v.label].push(JSON.parse(out));
  }
}
const base = median(walls["node -e 0"]);
const baseCpu = median(cpus["node -e 0"]);
console.log(
  `load: median of ${ROUNDS} fresh processes; node -e 0 = ${ms(base)} ms wall, ${ms(baseCpu)} ms CPU\n`,
);
console.log(
  "| candidate | load+init (ms) | first parse+read (ms) | process wall − node -e 0 (ms) | process CPU − node -e 0 (ms) | loaded files (MB) |",
);
console.log("|---|---|---|---|---|---|");
for (const v of variants) {
  const size = LOADED[v.name].reduce((sum, f) => sum + statSync(`${here}${f}`).size, 0) / 2 ** 20;
  const load = median(inProc[v.label].map((r) => r.loadMs));
  const first = median(inProc[v.label].map((r) => r.firstParseMs));
  const wall = ms(median(walls[v.label]) - base);
  const cpu = ms(median(cpus[v.label]) - baseCpu);
  console.log(`| ${v.label} | ${ms(load)} | ${ms(first)} | ${wall} | ${cpu} | ${size.toFixed(2)} |`);
}

const runs = Object.fromEntries(names.map((n) => [n, JSON.parse(timed([measure, "run", n]).out)]));
const reference = runs["mvdan-sh"].readings;
const corpus = (await import("./corpus.json", { with: { type: "json" } })).default;
console.log(
  `\nper command over ${corpus.length} table commands (median over passes, then across commands)\n`,
);
console.log(
  "| candidate | parse median / p95 / max (ms) | parse+read median / p95 (ms) | RSS Δ (MB) | heap Δ (MB) | external Δ (MB) | same reading | both fail closed | fails closed alone | reads what mvdan-sh rejects | reads differently |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|");
const differences = {};
for (const name of names) {
  const r = runs[name];
  const tally = { same: 0, bothClosed: 0, closedAlone: 0, readsRejected: 0, different: 0 };
  differences[name] = [];
  r.readings.forEach((reading, i) => {
    const ref = reference[i];
    const note = (tallied, what, detail) => {
      tally[tallied]++;
      differences[name].push([what, corpus[i], detail]);
    };
    if (ref.error && reading.error) tally.bothClosed++;
    else if (reading.error) note("closedAlone", "fails closed", reading.error);
    else if (ref.error) note("readsRejected", "reads rejected", ref.error);
    else if (isDeepStrictEqual(reading, ref)) tally.same++;
    else note("different", "differs", { [name]: reading, "mvdan-sh": ref });
  });
  const p = r.parse;
  const pr = r.parseAndRead;
  console.log(
    `| ${name} | ${ms(p.median)} / ${ms(p.p95)} / ${ms(p.max)} | ${ms(pr.median)} / ${ms(pr.p95)} | ${r.rssMB.toFixed(0)} | ${r.heapMB.toFixed(1)} | ${r.externalMB.toFixed(1)} | ${tally.same} | ${tally.bothClosed} | ${tally.closedAlone} | ${tally.readsRejected} | ${tally.different} |`,
  );
}
// What kind of difference: a redirection the candidate hangs on a whole list or pipeline
// (tree-sitter-bash issue #345) would put a write in the wrong directory or on the wrong command.
const kind = ([what, , detail], name) => {
  if (what !== "differs") return what;
  const mine = detail[name];
  return mine.compoundRedirs.length > detail["mvdan-sh"].compoundRedirs.length
    ? "redirect on the list"
    : "other";
};
for (const name of names.slice(1)) {
  const kinds = {};
  for (const d of differences[name]) kinds[kind(d, name)] = (kinds[kind(d, name)] ?? 0) + 1;
  console.log(`\n${name} unlike mvdan-sh: ${JSON.stringify(kinds)}`);
  for (const d of differences[name].filter((x) => kind(x, name) !== "redirect on the list"))
    console.log(`  ${kind(d, name)}: ${JSON.stringify(d[1])}`);
}
if (process.env.PARSER_DIFFS) {
  for (const name of names.slice(1)) {
    console.log(`\n## ${name}: ${differences[name].length} cases unlike mvdan-sh`);
    for (const d of differences[name]) console.log(JSON.stringify(d));
  }
}
