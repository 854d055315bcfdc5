// Issue 36: real work jailed vs plain — a small project's `npm test` and a loop of `git status`
// over 1,000 files, each run as Claude Code runs it with `guard: "kernel"` (the command the real
// pre-tool hook answers in `updatedInput`: the bash launcher over the session's plan) and plain.
// Plain is the baseline of each pair; the rounds interleave the two and rotate their order.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compare, median } from "./lib.mjs";

export const STATUS_RUNS = 20;
const TREE_FILES = 1000;

/** A tiny node:test project (no dependencies, nothing to install) under `dir`. */
function tinyProject(dir) {
  mkdirSync(join(dir, "test"), { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify({ name: "tiny", private: true, type: "module", scripts: { test: "node --test" } }, null, 2)}\n`,
  );
  writeFileSync(join(dir, "sum.js"), "export const sum = (xs) => xs.reduce((a, b) => a + b, 0);\n");
  for (const [name, body] of [
    ["sum", `assert.equal(sum([1, 2, 3]), 6);\n  assert.equal(sum([]), 0);`],
    ["strings", `assert.equal("tandem".toUpperCase(), "TANDEM");`],
    ["async", `assert.equal(await Promise.resolve(sum([40, 2])), 42);`],
  ]) {
    writeFileSync(
      join(dir, "test", `${name}.test.js`),
      `import { test } from "node:test";\nimport assert from "node:assert/strict";\nimport { sum } from "../sum.js";\n\ntest("${name}", async () => {\n  ${body}\n});\n`,
    );
  }
}

/** Commits 1,000 small files and the tiny project to `repo` (a fresh `git init`). */
export function fillRepo(repo) {
  for (let d = 0; d < 10; d++) {
    const dir = join(repo, "tree", `d${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < TREE_FILES / 10; f++) writeFileSync(join(dir, `f${f}.txt`), `file ${d}/${f}\n`);
  }
  tinyProject(join(repo, "tiny"));
  const git = (...args) => execFileSync("git", ["-C", repo, ...args], { stdio: "ignore" });
  git("add", "-A", "--", ".");
  git("-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-qm", "bench tree");
}

/**
 * Times each pair plain vs jailed. `jailed(command)` gives the launcher command the hook answers
 * for `command`. Returns the section's markdown lines.
 */
export function workRatios(repo, env, rounds, jailed) {
  const loop = `for i in $(seq ${STATUS_RUNS}); do git status --porcelain >/dev/null; done`;
  const pairs = [
    { name: "npm test (tiny project, 3 node:test files)", command: "npm test", cwd: join(repo, "tiny") },
    { name: `git status ×${STATUS_RUNS} (${TREE_FILES} files), one command`, command: loop, cwd: repo },
  ];
  const rows = [];
  for (const p of pairs) {
    const at = (name, command) => ({ name, cmd: "bash", args: ["-c", command], cwd: p.cwd, env });
    const r = compare(at("plain", p.command), [at("jailed", jailed(p.command))], rounds);
    const [j] = r.cases;
    const added = j.median - r.baseline.median;
    // Each round's jailed run against the plain run beside it: steadier when the load drifts.
    const paired = median(j.samples.map((s, i) => s / r.baseline.samples[i]));
    rows.push(
      `| ${p.name} | ${r.baseline.median.toFixed(1)} | ${j.median.toFixed(1)} | ${j.ratio.toFixed(3)}× | ${paired.toFixed(3)}× | ${added.toFixed(1)} |`,
    );
  }
  return [
    `Real work, ${rounds} interleaved rounds (plain and jailed alternate, order rotating), medians; target ≤ 1.05×:`,
    "",
    "| work | plain p50 ms | jailed p50 ms | jailed / plain (medians) | median of per-round ratios | added ms |",
    "|---|---:|---:|---:|---:|---:|",
    ...rows,
    "",
  ];
}
