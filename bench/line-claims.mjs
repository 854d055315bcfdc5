// `node bench/line-claims.mjs`: the added cost of one line-claim decision on the server path
// (decision 0061) for a 2,000-line file: the hunks' authors re-derived (attribute) and the verdict
// (decideLineClaim), as the claims gate runs them inside its transaction. Issue 40 asks p50 <= 2 ms.
import { importSource } from "./core-import.mjs";

const { attribute, splitLines, decideLineClaim } = await importSource(`
export { attribute } from "./src/core/lines/layout.ts";
export { splitLines } from "./src/core/lines/diff.ts";
export { decideLineClaim } from "./src/core/claims/line-claim.ts";
`);

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);
const fn = (i) => `export function f${i}() {\n  const a = ${i};\n  const b = a * 2;\n  return a + b;\n}\n\n`;
const base = Array.from({ length: 334 }, (_, i) => fn(i)).join(""); // 2,004 lines
// The peer changed five functions spread over the file; the caller edits a sixth, far from them.
let peer = base;
for (const i of [10, 80, 150, 220, 300]) peer = peer.replace(`const a = ${i};`, `const a = ${i} * 7;`);
const proposed = peer.replace(
  "return a + b;\n}\n\nexport function f40()",
  "return a - b;\n}\n\nexport function f40()",
);
const B = splitLines(base);
const P = splitLines(peer);
const X = splitLines(proposed);
const hunks = attribute(B, B, [], P, "peer");

const times = [];
let verdict;
for (let r = 0; r < ROUNDS; r++) {
  const t0 = process.hrtime.bigint();
  // As the gate runs it: the hunks re-derived from what the store last saw, then the verdict.
  const now = attribute(B, P, hunks, P, null);
  verdict = decideLineClaim({ current: P, hunks: now, proposed: X, blocks: (o) => o === "peer", margin: 3 });
  times.push(Number(process.hrtime.bigint() - t0) / 1e6);
}
times.sort((a, b) => a - b);
const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(3);
console.log(`line-claim decision, ${B.length}-line file, 5 peer hunks, ${ROUNDS} rounds`);
console.log(`allowed: ${verdict.allow}; p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms`);
