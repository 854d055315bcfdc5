// `node bench/patch-parse.mjs`: how long Codex's apply_patch parser (src/targets/apply-patch.ts)
// takes on big patches, and whether that grows linearly: a 500-file patch, and single-file patches
// of 4,000 and 80,000 added lines (~200 KB and ~4 MB). Timed here, never asserted in a test.
import { importSource } from "./core-import.mjs";

const { parsePatchTargets } = await importSource(
  `export { parsePatchTargets } from "./src/targets/apply-patch.ts";`,
);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const patch = (...lines) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");
const files = (n) =>
  patch(
    ...Array.from({ length: n }, (_, i) => [
      `*** Update File: src/file-${i}.ts`,
      "@@",
      ...Array.from({ length: 20 }, (_, j) => (j % 2 ? `-old ${j}` : `+new ${j}`)),
    ]).flat(),
  );
const added = (n) =>
  patch("*** Add File: big.txt", ...Array.from({ length: n }, (_, i) => `+line ${i} ${"x".repeat(40)}`));

const cases = [
  ["250-file patch", files(250)],
  ["500-file patch", files(500)],
  ["4,000 added lines", added(4_000)],
  ["80,000 added lines", added(80_000)],
];
console.log(`apply_patch parser, ${ROUNDS} rounds each (p50, p95; per MB of patch text)`);
for (const [name, text] of cases) {
  const times = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = process.hrtime.bigint();
    parsePatchTargets(text);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  const p50 = times[Math.floor(times.length / 2)];
  const mb = Buffer.byteLength(text) / 1e6;
  console.log(
    `${name} (${mb.toFixed(2)} MB): p50 ${p50.toFixed(2)} ms, p95 ${times[Math.floor(times.length * 0.95)].toFixed(2)} ms, ${(p50 / mb).toFixed(2)} ms/MB`,
  );
}
