// `node bench/subagents.mjs` (after `npm run build`): capture and apply of a sub-agent whose work is
// 2,000 changed paths / ~50 MB (text of varying size, ~10% random binaries, deletions, renames, three
// commits plus uncommitted changes), against plain git doing the same work on an identical copy in the
// same run, plus the peak memory of each side at ~10 MB and ~50 MB of the same shape.
// BENCH_ROUNDS (default 3) sets the rounds; BENCH_VERBOSE=1 prints progress on stderr; BENCH_KEEP=1
// keeps the temporary repositories (for profiling) and prints where they are.
import { execFileSync, spawnSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { compare, table } from "./lib.mjs";

const bin = fileURLToPath(new URL("../dist/tandem.cjs", import.meta.url));
const MB = 1e6;
const LARGE = 50 * MB;
const SMALL = 10 * MB;
/** Only for the memory table: twice the timed shape, to show whether peaks keep growing. */
const HUGE = 100 * MB;
const TIME = "/usr/bin/time";
const t0 = Date.now();
/** Progress on stderr with BENCH_VERBOSE=1. */
const note = (msg) =>
  process.env.BENCH_VERBOSE && process.stderr.write(`[${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}\n`);

// ---------------------------------------------------------------------------------------------------
// Deterministic content: the child and the baseline copy must end up byte-identical.

function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function seedOf(text) {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

const WORDS = (
  "const let return if else for while function import export from await async new this null true " +
  "false value index count result error data config path name items map filter reduce push length " +
  "string number object array buffer stream git tandem capture apply patch commit worktree session " +
  "claim store event child parent target base head series blob bytes limit retry marker fence stage"
).split(" ");

function codeLine(r) {
  const parts = [];
  for (let i = 2 + Math.floor(r() * 10); i > 0; i--) parts.push(WORDS[Math.floor(r() * WORDS.length)]);
  return `${"  ".repeat(Math.floor(r() * 4))}${parts.join(" ")};`;
}

/** 8 MB of code-like lines; files are stitched from small random windows of it, so no two look alike. */
function makePool() {
  const r = prng(7);
  const lines = [];
  for (let n = 0; n < 8 * MB; ) {
    const line = codeLine(r);
    lines.push(line);
    n += line.length + 1;
  }
  const text = `${lines.join("\n")}\n`;
  return text + text;
}

let pool = null;

function textOf(path, size) {
  pool ??= makePool();
  const r = prng(seedOf(path));
  const parts = [`// ${path}\n`];
  let n = parts[0].length;
  while (n < size) {
    let start = Math.floor(r() * (pool.length / 2));
    start = pool.indexOf("\n", start) + 1;
    const want = Math.min(4096, size - n);
    let end = pool.indexOf("\n", start + want);
    if (end === -1) end = start + want;
    const chunk = pool.slice(start, end + 1);
    parts.push(chunk);
    n += chunk.length;
  }
  return parts.join("");
}

function binaryOf(seed, size) {
  const r = prng(seed);
  const words = new Uint32Array(Math.ceil(size / 4));
  for (let i = 0; i < words.length; i++) words[i] = r() * 4294967296;
  return Buffer.from(words.buffer, 0, size);
}

/** Replaces every 20th line (from a random offset) with a new one: a many-hunk edit. */
function edited(text, path) {
  const r = prng(seedOf(`edit:${path}`));
  const lines = text.split("\n");
  for (let i = 1 + Math.floor(r() * 20); i < lines.length - 1; i += 20) lines[i] = codeLine(r);
  if (lines.length <= 22) lines.splice(1, 0, codeLine(r));
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------------
// The shape of the change. Counts are fixed; sizes scale with `total` so the 10 MB and 50 MB
// versions differ only in bytes. "Changed bytes" = the size of every changed file (the new content of
// added, modified and renamed files, the old content of deleted ones).

const SHAPE = {
  // In the base commit, changed later.
  modC: 100, // text, modified in commit 2
  delC: 10, // text, deleted in commit 2
  renC: 10, // text, renamed in commit 2 (half edited too)
  binModC: 10, // binary, rewritten in commit 3
  modU: 650, // text, modified, uncommitted
  delU: 60, // text, deleted, uncommitted
  renU: 60, // text, renamed, uncommitted (half edited too)
  binModU: 80, // binary, rewritten, uncommitted
  // New.
  addC1: 120, // text, added in commit 1 (100 of them edited again, uncommitted)
  binAddC1: 10, // binary, added in commit 1
  addC3: 40, // text, added in commit 3
  addU: 750, // text, untracked
  binAddU: 100, // binary, untracked
  reeditU: 100, // uncommitted edits of files added in commit 1 (same paths as addC1)
  untouched: 400, // small tracked text files nobody changes
};

const TEXT_KINDS = ["modC", "delC", "renC", "modU", "delU", "renU", "addC1", "addC3", "addU"];
const BIN_KINDS = ["binModC", "binModU", "binAddC1", "binAddU"];

function makePlan(total) {
  const r = prng(42);
  const slots = {};
  const logUniform = (max) => Math.exp(r() * Math.log(max));
  const sized = (kinds, budget, max, min) => {
    const all = [];
    for (const kind of kinds) {
      slots[kind] = [];
      for (let i = 0; i < SHAPE[kind]; i++) {
        const dir = kind.startsWith("bin") ? `assets/a${i % 10}` : `src/pkg${(i * 7 + kind.length) % 40}`;
        const ext = kind.startsWith("bin") ? "bin" : "ts";
        const slot = { path: `${dir}/${kind}-${i}.${ext}`, weight: logUniform(max) };
        slots[kind].push(slot);
        all.push(slot);
      }
    }
    const sum = all.reduce((s, x) => s + x.weight, 0);
    for (const slot of all) slot.size = Math.max(min, Math.round((slot.weight / sum) * budget));
  };
  sized(TEXT_KINDS, total * 0.8, 128, 200);
  sized(BIN_KINDS, total * 0.2, 64, 64);
  for (const slot of [...slots.renC, ...slots.renU]) {
    slot.to = slot.path.replace(/^src\/pkg(\d+)\//, "src/moved$1/").replace(/-(\d+)\.ts$/, "-$1-renamed.ts");
  }
  slots.untouched = Array.from({ length: SHAPE.untouched }, (_, i) => ({
    path: `src/pkg${i % 40}/stable-${i}.ts`,
    size: 1000 + Math.round(r() * 7000),
  }));
  const changed = [...TEXT_KINDS, ...BIN_KINDS].flatMap((k) => slots[k]);
  return {
    total,
    slots,
    changedPaths: changed.length,
    changedBytes: changed.reduce((s, x) => s + x.size, 0),
  };
}

function put(root, path, data) {
  const abs = join(root, path);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, data);
}

const BASE_TEXTS = ["modC", "delC", "renC", "modU", "delU", "renU", "untouched"];

function writeBase(root, plan) {
  const { slots } = plan;
  for (const kind of BASE_TEXTS) for (const s of slots[kind]) put(root, s.path, textOf(s.path, s.size));
  for (const kind of ["binModC", "binModU"]) {
    for (const s of slots[kind]) put(root, s.path, binaryOf(seedOf(`base:${s.path}`), s.size));
  }
}

function renameFile(root, slot, edit) {
  const to = join(root, slot.to);
  mkdirSync(dirname(to), { recursive: true });
  renameSync(join(root, slot.path), to);
  if (edit) writeFileSync(to, edited(readFileSync(to, "utf8"), slot.to));
}

function editFile(root, path) {
  const abs = join(root, path);
  writeFileSync(abs, edited(readFileSync(abs, "utf8"), path));
}

/** Three commits in the child: adds; edits, deletions and renames; more adds and binary rewrites. */
function writeCommits(root, plan, commit) {
  const { slots } = plan;
  for (const s of slots.addC1) put(root, s.path, textOf(s.path, s.size));
  for (const s of slots.binAddC1) put(root, s.path, binaryOf(seedOf(s.path), s.size));
  commit("Add the first batch");
  for (const s of slots.modC) editFile(root, s.path);
  for (const s of slots.delC) unlinkSync(join(root, s.path));
  for (const [i, s] of slots.renC.entries()) renameFile(root, s, i % 2 === 0);
  commit("Edit, delete and move");
  for (const s of slots.addC3) put(root, s.path, textOf(s.path, s.size));
  for (const s of slots.binModC) put(root, s.path, binaryOf(seedOf(s.path), s.size));
  commit("Add the second batch");
}

/** The uncommitted part, on top of the child's HEAD; run identically in the child and the copy. */
function writeDirty(root, plan) {
  const { slots } = plan;
  for (const s of slots.addU) put(root, s.path, textOf(s.path, s.size));
  for (const s of slots.binAddU) put(root, s.path, binaryOf(seedOf(s.path), s.size));
  for (const s of slots.binModU) put(root, s.path, binaryOf(seedOf(s.path), s.size));
  for (const s of slots.modU) editFile(root, s.path);
  for (const s of slots.addC1.slice(0, SHAPE.reeditU)) editFile(root, s.path);
  for (const s of slots.delU) unlinkSync(join(root, s.path));
  for (const [i, s] of slots.renU.entries()) renameFile(root, s, i % 2 === 0);
}

// ---------------------------------------------------------------------------------------------------
// Workspace: the coordination repository `main`, the child made by `tandem sub run`, and a separate
// clone (own object store) at the child's HEAD with the same uncommitted change, for the baseline.

function benchEnv(base) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("TANDEM_")) env[k] = v;
  return {
    ...env,
    XDG_CONFIG_HOME: join(base, "xdg-config"),
    XDG_STATE_HOME: join(base, "xdg-state"),
    GIT_AUTHOR_NAME: "Bench",
    GIT_AUTHOR_EMAIL: "bench@tandem.invalid",
    GIT_COMMITTER_NAME: "Bench",
    GIT_COMMITTER_EMAIL: "bench@tandem.invalid",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
  };
}

function gitIn(env) {
  return (cwd, ...args) =>
    execFileSync("git", args, {
      cwd,
      env,
      encoding: "utf8",
      maxBuffer: 64 * MB,
      stdio: ["ignore", "pipe", "pipe"],
    });
}

function tandemJson(ws, ...args) {
  const res = spawnSync(process.execPath, [bin, ...args], {
    cwd: ws.main,
    env: ws.env,
    encoding: "utf8",
    maxBuffer: 64 * MB,
  });
  if (res.status !== 0) throw new Error(`tandem ${args.join(" ")} exited ${res.status}: ${res.stderr}`);
  return JSON.parse(res.stdout);
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Rewrites an index long enough after its files were written that no entry is racily clean. */
function settleIndexes(ws, dirs) {
  sleep(1100);
  for (const dir of dirs) spawnSync("git", ["update-index", "-q", "--refresh"], { cwd: dir, env: ws.env });
}

export function workspace(total, spaces) {
  const base = mkdtempSync(join(tmpdir(), "tandem-bench-sub-"));
  spaces.push({ base });
  const env = benchEnv(base);
  const git = gitIn(env);
  const plan = makePlan(total);
  const main = join(base, "main");
  mkdirSync(main);
  git(main, "init", "-q", "-b", "main");
  writeBase(main, plan);
  git(main, "add", "-A");
  git(main, "commit", "-q", "-m", "Base");
  mkdirSync(join(main, ".tandem"));
  writeFileSync(
    join(main, ".tandem", "config.jsonc"),
    `${JSON.stringify({ subagents: { capture: { maxPatchBytes: 512 * 1024 * 1024 } } })}\n`,
  );
  const ws = { base, env, git, plan, main };
  note(`${mb(total)}: base committed`);
  const run = tandemJson(ws, "sub", "run", "--json", "--", "true");
  ws.id = run.id;
  ws.child = run.worktree;
  ws.baseCommit = run.base;
  writeCommits(ws.child, plan, (msg) => {
    git(ws.child, "add", "-A");
    git(ws.child, "commit", "-q", "-m", msg);
  });
  writeDirty(ws.child, plan);
  note(`${mb(total)}: child written`);
  ws.childHead = git(ws.child, "rev-parse", "HEAD").trim();
  ws.copy = join(base, "copy");
  git(base, "clone", "-q", "--no-checkout", main, ws.copy);
  git(ws.copy, "checkout", "-q", "--detach", ws.childHead);
  writeDirty(ws.copy, plan);
  settleIndexes(ws, [ws.child, ws.copy]);
  const status = (dir) => git(dir, "status", "--porcelain", "-z", "--untracked-files=all");
  if (status(ws.child) !== status(ws.copy)) throw new Error("the baseline copy differs from the child");
  note(`${mb(total)}: copy written and checked`);
  ws.blobs = join(main, ".git", "tandem", "blobs");
  ws.targets = 0;
  return ws;
}

/** Fresh worktrees of `main` at the base for apply targets, made ahead so their indexes can settle. */
export function makeTargets(ws, count) {
  const dirs = [];
  for (let i = 0; i < count; i++) {
    const dir = join(ws.base, `target-${ws.targets++}`);
    ws.git(ws.main, "worktree", "add", "-q", "--detach", dir, ws.baseCommit);
    dirs.push(dir);
  }
  settleIndexes(ws, dirs);
  return dirs;
}

/** Drops objects no ref, worktree HEAD or index reaches, e.g. the blobs an earlier `apply --3way` staged. */
function prune(ws, dir) {
  ws.git(dir, "prune", "--expire=now");
}

// ---------------------------------------------------------------------------------------------------
// Commands.

const FORMAT_PATCH = (ws) => `git format-patch --binary --stdout ${ws.baseCommit}..HEAD >/dev/null`;
const ADD_DIFF = "git add -A && git diff --cached --binary HEAD >/dev/null";

/** Flushes dirty pages so no run pays, through its own fsync, for what the previous one wrote. */
const flush = () => spawnSync("sync");

function captureCases(ws) {
  const resetCopy = () => {
    ws.git(ws.copy, "reset", "-q");
    prune(ws, ws.copy);
    flush();
  };
  const baseline = {
    name: "git format-patch BASE..HEAD + git add -A + git diff --cached --binary HEAD",
    cmd: "sh",
    args: ["-c", `${FORMAT_PATCH(ws)} && ${ADD_DIFF}`],
    cwd: ws.copy,
    env: ws.env,
    before: resetCopy,
  };
  const tandem = {
    name: "tandem sub capture",
    cmd: process.execPath,
    args: [bin, "sub", "capture", ws.id],
    cwd: ws.main,
    env: ws.env,
    // Every round stores its blobs afresh, as a first capture does.
    before: () => {
      rmSync(ws.blobs, { recursive: true, force: true });
      flush();
    },
    target: 1.5,
  };
  const addDiff = {
    ...baseline,
    name: "git add -A + git diff --cached --binary HEAD (uncommitted only)",
    args: ["-c", ADD_DIFF],
  };
  return { baseline, tandem, addDiff };
}

/** The latest capture's mbox and patch, copied out of the store for the baseline. */
export function artifactFiles(ws) {
  const shown = tandemJson(ws, "sub", "show", "--json", ws.id);
  const c = shown.capture;
  if (!c?.mboxBlob || !c.patchBlob) throw new Error("the capture should hold both an mbox and a patch");
  const mbox = join(ws.base, "series.mbox");
  const patch = join(ws.base, "worktree.patch");
  cpSync(join(ws.blobs, c.mboxBlob), mbox);
  cpSync(join(ws.blobs, c.patchBlob), patch);
  return { mbox, patch, capture: c };
}

/** Each run gets the next fresh target (its cwd, and tandem's --target). */
function applyCases(ws, files, targets) {
  let next = 0;
  const fresh = (c) => () => {
    c.cwd = targets[next++];
    if (c.args[0] === bin) c.args[c.args.length - 1] = c.cwd;
    prune(ws, ws.main);
    flush();
  };
  const am = `git am -q --keep-cr '${files.mbox}'`;
  const cases = {
    baseline: {
      name: "git am + git apply --binary",
      cmd: "sh",
      args: ["-c", `${am} && git apply --binary '${files.patch}'`],
    },
    tandem: {
      name: "tandem sub apply",
      cmd: process.execPath,
      args: [bin, "sub", "apply", ws.id, "--target", ""],
      target: 1.5,
    },
    threeWay: {
      name: "git am + git apply --3way --binary + git reset (tandem's git steps, plain)",
      cmd: "sh",
      args: ["-c", `${am} && git apply --3way --binary '${files.patch}' 2>/dev/null && git reset -q`],
    },
  };
  for (const c of Object.values(cases)) {
    c.env = ws.env;
    c.before = fresh(c);
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------------
// Peak memory: GNU time's %M is the largest RSS of any process in the tree (node or one of its gits);
// a preload records the node process's own peak, so the two can be told apart.

function rssProbe(ws) {
  const preload = join(ws.base, "rss-preload.cjs");
  writeFileSync(
    preload,
    [
      'const { appendFileSync } = require("node:fs");',
      'process.on("exit", () => appendFileSync(process.env.BENCH_RSS_FILE, process.resourceUsage().maxRSS + "\\n"));',
      "",
    ].join("\n"),
  );
  return preload;
}

function peak(ws, c) {
  const treeFile = join(ws.base, "rss-tree");
  const nodeFile = join(ws.base, "rss-node");
  rmSync(treeFile, { force: true });
  rmSync(nodeFile, { force: true });
  c.before?.();
  const isNode = c.cmd === process.execPath;
  const args = isNode ? ["-r", rssProbe(ws), ...c.args] : c.args;
  const res = spawnSync(TIME, ["-f", "%M", "-o", treeFile, c.cmd, ...args], {
    cwd: c.cwd,
    env: { ...c.env, BENCH_RSS_FILE: nodeFile },
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
  });
  if (res.status !== 0) throw new Error(`${c.name} exited ${res.status}: ${res.stderr}`);
  const kb = (file) => Number(readFileSync(file, "utf8").trim().split("\n").pop());
  return { tree: kb(treeFile) / 1024, node: isNode ? kb(nodeFile) / 1024 : null };
}

function measurePeaks(ws) {
  const cap = captureCases(ws);
  const capture = { tandem: peak(ws, cap.tandem), git: peak(ws, cap.baseline) };
  const files = artifactFiles(ws);
  const [t1, t2] = makeTargets(ws, 2);
  const ap = applyCases(ws, files, [t1, t2]);
  const apply = { tandem: peak(ws, ap.tandem), git: peak(ws, ap.baseline) };
  return { capture, apply, files };
}

// ---------------------------------------------------------------------------------------------------

const mb = (bytes) => `${(bytes / MB).toFixed(1)} MB`;
const mib = (x) => (x === null ? "—" : `${x.toFixed(0)} MiB`);

function shapeLines(plan, files) {
  const s = SHAPE;
  const text = TEXT_KINDS.reduce((n, k) => n + s[k], 0);
  const bins = BIN_KINDS.reduce((n, k) => n + s[k], 0);
  const binBytes = BIN_KINDS.flatMap((k) => plan.slots[k]).reduce((n, x) => n + x.size, 0);
  const sizes = TEXT_KINDS.flatMap((k) => plan.slots[k]).map((x) => x.size);
  return [
    `- **${plan.changedPaths.toLocaleString("en")} changed paths, ${mb(plan.changedBytes)}** (the size of every changed file: new content of added, modified and renamed files, old content of deleted ones),`,
    `  on a base of ${(plan.changedPaths - s.addC1 - s.binAddC1 - s.addC3 - s.addU - s.binAddU + s.untouched).toLocaleString("en")} tracked files.`,
    `- ${text.toLocaleString("en")} text files of ${(Math.min(...sizes) / 1000).toFixed(1)}–${(Math.max(...sizes) / 1000).toFixed(0)} kB (log-uniform), ${bins} random binary files (${mb(binBytes)}).`,
    `- **3 commits** (${s.addC1 + s.binAddC1 + s.addC3} added, ${s.modC} edited, ${s.binModC} binaries rewritten, ${s.delC} deleted, ${s.renC} renamed):` +
      ` mbox ${mb(files.capture.mboxBytes)}.`,
    `- **Uncommitted** (${s.addU + s.binAddU} untracked, ${s.modU} edited, ${s.reeditU} committed files edited again, ${s.binModU} binaries rewritten,` +
      ` ${s.delU} deleted, ${s.renU} renamed; edits replace every 20th line): patch ${mb(files.capture.patchBytes)}.`,
    `- ${(plan.changedPaths + s.reeditU).toLocaleString("en")} file changes in all: ${s.reeditU} files are added in a commit and edited again.`,
  ];
}

/** Runs the benchmark and returns a markdown section for bench/RESULTS.md. */
export function subagentBench({ rounds = Number(process.env.BENCH_ROUNDS ?? 5) } = {}) {
  const spaces = [];
  try {
    const large = workspace(LARGE, spaces);
    const cap = captureCases(large);
    const captureResult = compare(cap.baseline, [cap.tandem, cap.addDiff], rounds);
    note("capture rounds done");
    const largePeaks = measurePeaks(large);
    note("peaks (large) done");
    const targets = makeTargets(large, 3 * rounds);
    const ap = applyCases(large, largePeaks.files, targets);
    const applyResult = compare(ap.baseline, [ap.tandem, ap.threeWay], rounds);
    note("apply rounds done");
    const small = workspace(SMALL, spaces);
    const smallPeaks = measurePeaks(small);
    const huge = workspace(HUGE, spaces);
    const hugePeaks = measurePeaks(huge);
    note("peaks (huge) done");
    note("peaks (small) done");

    const [tCap] = captureResult.cases;
    const [tApply, threeWay] = applyResult.cases;
    const verdict = (c) => (c.ratio <= c.target ? "within" : `**${(c.ratio / c.target).toFixed(2)}× over**`);
    const artifact = (p) => p.files.capture.mboxBytes + p.files.capture.patchBytes;
    const peakRow = (what, ws, p, step) =>
      `| ${what} | ${mb(ws.plan.changedBytes)} | ${mb(artifact(p))} | ${mib(step.tandem.node)} | ${mib(step.tandem.tree)} | ${mib(step.git.tree)} |`;
    const growth = (step, from, to, what) => {
      const dNode = to[step].tandem.node - from[step].tandem.node;
      const dGit = to[step].git.tree - from[step].git.tree;
      const dBytes = (artifact(to) - artifact(from)) / 1048576;
      return `${step}, ${what}: tandem's node process ${dNode >= 0 ? "+" : ""}${dNode.toFixed(0)} MiB (${(dNode / dBytes).toFixed(2)} MiB per MiB of artifact), plain git +${dGit.toFixed(0)} MiB`;
    };
    return [
      "## Sub-agents: capture and apply",
      "",
      ...shapeLines(large.plan, largePeaks.files),
      "",
      "The child is made by `tandem sub run -- true`; the commits and the uncommitted change are then written",
      "into its worktree. The baseline runs on a separate clone (its own object store) checked out at the",
      "child's HEAD with the same uncommitted change written by the same generator (checked equal with",
      `\`git status\`). ${rounds} alternating rounds, medians; \`sync\` before every run (outside the timed region)`,
      "so no run's fsync pays for what the previous one left in the page cache.",
      "",
      "### Capture",
      "",
      "`tandem sub capture` (status, size probe, format-patch, private index + object directory, add -A,",
      "streamed diff, blobs hashed and fsynced, record) against plain git doing the same diffing on the copy.",
      "Before each run the copy is `git reset` and pruned and tandem's blob store is emptied, so both sides",
      "write every object afresh, as a first capture does.",
      "",
      table(captureResult),
      "",
      `- capture / baseline: **${tCap.ratio.toFixed(2)}×** (target ≤ ${tCap.target}×: ${verdict(tCap)})`,
      "",
      "### Apply",
      "",
      "Into a fresh worktree of the repository at the base, made for every run outside the timed region",
      "(and the repository pruned, so blobs staged by an earlier run are written again). Tandem: preflight,",
      "`git am`, a plain `git apply --binary` (the `--3way` merge only when that does not apply cleanly),",
      "records. Baseline: `git am` of the same mbox and `git apply --binary` of the same patch. The third row",
      "is what `--3way` plus unstaging would cost as plain git, for comparison with §7.3's literal steps.",
      "",
      table(applyResult),
      "",
      `- apply / baseline: **${tApply.ratio.toFixed(2)}×** (target ≤ ${tApply.target}×: ${verdict(tApply)})`,
      `- §7.3's literal steps (\`--3way\`, then unstaging) would take ${threeWay.median.toFixed(0)} ms as plain git` +
        ` (${threeWay.ratio.toFixed(2)}× the baseline); tandem applies plainly first and needs the merge only on conflict`,
      "",
      "### Peak memory",
      "",
      "One run each, outside the timed rounds, at this shape and at the same shape with every file a fifth",
      "and twice the size. *tandem (node)* is the node process's own `maxRSS` (recorded by a `-r` preload); *whole tree*",
      "is GNU `/usr/bin/time -f %M`, the largest RSS of any one process in the tree (node or a git it runs);",
      "*plain git* is the same for the baseline command.",
      "",
      "| step | changed | artifact (mbox + patch) | tandem (node) | tandem, whole tree | plain git |",
      "|---|---:|---:|---:|---:|---:|",
      peakRow("capture", small, smallPeaks, smallPeaks.capture),
      peakRow("capture", large, largePeaks, largePeaks.capture),
      peakRow("capture", huge, hugePeaks, hugePeaks.capture),
      peakRow("apply", small, smallPeaks, smallPeaks.apply),
      peakRow("apply", large, largePeaks, largePeaks.apply),
      peakRow("apply", huge, hugePeaks, hugePeaks.apply),
      "",
      ...["capture", "apply"].flatMap((step) => [
        `- ${growth(step, smallPeaks, largePeaks, "10 → 50 MB")}`,
        `- ${growth(step, largePeaks, hugePeaks, "50 → 100 MB")}`,
      ]),
      "",
    ].join("\n");
  } finally {
    for (const ws of spaces) {
      if (process.env.BENCH_KEEP) process.stderr.write(`kept ${ws.base}\n`);
      else rmSync(ws.base, { recursive: true, force: true });
    }
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${subagentBench()}\n`);
}
