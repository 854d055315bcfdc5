// One candidate in a fresh process (run by run.mjs).
//   node measure.mjs load NAME  — load, init and parse one command; prints the in-process times.
//   node measure.mjs run NAME   — parse every corpus command: per-command times, memory, readings.
import { readFileSync } from "node:fs";
import { CANDIDATES } from "./candidates.mjs";

const [mode, name] = process.argv.slice(2);
const corpus = JSON.parse(readFileSync(new URL("./corpus.json", import.meta.url), "utf8"));
/** The representative command of decision 0003. */
const SAMPLE =
  'cd sub && echo "x" > "a b.txt" 2>&1 | tee -a log; sed -i -e s/a/b/ f.txt; for i in 1 2; do rm -f $i; done';
const PASSES = Number(process.env.PARSER_PASSES ?? 7);

const memBefore = process.memoryUsage();
const t0 = performance.now();
const candidate = await CANDIDATES[name]();
const t1 = performance.now();
const first = candidate.parse(SAMPLE);
candidate.read(SAMPLE, first);
const t2 = performance.now();

if (mode === "load") {
  process.stdout.write(JSON.stringify({ loadMs: t1 - t0, firstParseMs: t2 - t1 }));
} else {
  // Pass 1 warms up and gives the readings; then per command, the median over PASSES passes.
  const readings = corpus.map((src) => {
    const tree = candidate.parse(src);
    return tree.error ? { error: tree.error } : candidate.read(src, tree);
  });
  const parseTimes = corpus.map(() => []);
  const walkTimes = corpus.map(() => []);
  for (let pass = 0; pass < PASSES; pass++) {
    corpus.forEach((src, i) => {
      const a = performance.now();
      const tree = candidate.parse(src);
      const b = performance.now();
      if (!tree.error) candidate.read(src, tree);
      const c = performance.now();
      parseTimes[i].push(b - a);
      walkTimes[i].push(c - a);
    });
  }
  const memAfter = process.memoryUsage();
  const perCommand = (times) => times.map((t) => quantile(t, 0.5));
  process.stdout.write(
    JSON.stringify({
      parse: summary(perCommand(parseTimes)),
      parseAndRead: summary(perCommand(walkTimes)),
      rssMB: (memAfter.rss - memBefore.rss) / 2 ** 20,
      heapMB: (memAfter.heapUsed - memBefore.heapUsed) / 2 ** 20,
      externalMB:
        (memAfter.external + memAfter.arrayBuffers - memBefore.external - memBefore.arrayBuffers) / 2 ** 20,
      readings,
    }),
  );
}

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function summary(times) {
  return { median: quantile(times, 0.5), p95: quantile(times, 0.95), max: quantile(times, 1) };
}
