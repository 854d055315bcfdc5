// Shared bench machinery: alternate every case with the baseline in each round
// so machine noise hits both alike, then report medians and ratios.
import { spawnSync } from "node:child_process";

export function timeOnce({ cmd, args, input, cwd, env, okCodes = [0] }) {
  const start = process.hrtime.bigint();
  const res = spawnSync(cmd, args, {
    cwd,
    env: env ?? process.env,
    input: input ?? "",
    stdio: ["pipe", "ignore", "pipe"],
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (!okCodes.includes(res.status)) {
    throw new Error(`${cmd} ${args.join(" ")} exited ${res.status}: ${res.stderr}`);
  }
  return ms;
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The nearest-rank percentile (`p` in 0–1): the smallest sample with at least p of them at or below it. */
export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
}

/**
 * Runs `rounds` rounds; in each, the baseline and then every case once (the
 * order of cases rotates per round). Returns medians, 95th percentiles and the samples (in round
 * order) in ms.
 */
export function compare(baseline, cases, rounds) {
  const samples = new Map([[baseline.name, []], ...cases.map((c) => [c.name, []])]);
  for (let r = 0; r < rounds; r++) {
    const order = [baseline, ...cases.slice(r % cases.length), ...cases.slice(0, r % cases.length)];
    for (const c of order) {
      c.before?.();
      samples.get(c.name).push(timeOnce(c));
    }
  }
  const base = median(samples.get(baseline.name));
  return {
    baseline: {
      name: baseline.name,
      median: base,
      p95: percentile(samples.get(baseline.name), 0.95),
      samples: samples.get(baseline.name),
    },
    cases: cases.map((c) => {
      const m = median(samples.get(c.name));
      const p95 = percentile(samples.get(c.name), 0.95);
      return {
        name: c.name,
        median: m,
        ratio: m / base,
        p95,
        target: c.target ?? null,
        samples: samples.get(c.name),
      };
    }),
  };
}

export function table(result) {
  const rows = [
    "| case | median ms | ratio to baseline | target |",
    "|---|---:|---:|---:|",
    `| ${result.baseline.name} (baseline) | ${result.baseline.median.toFixed(1)} | 1.00× | |`,
    ...result.cases.map(
      (c) =>
        `| ${c.name} | ${c.median.toFixed(1)} | ${c.ratio.toFixed(2)}× | ${c.target ? `≤ ${c.target}×` : ""} |`,
    ),
  ];
  return rows.join("\n");
}

/** Like `table`, with each case's 95th percentile beside its median, both as ratios to the baseline's median. */
export function spreadTable(result) {
  const b = result.baseline;
  const ratio = (ms) => `${(ms / b.median).toFixed(2)}×`;
  return [
    "| case | p50 ms | p95 ms | p50 ratio | p95 ratio | target (p50) |",
    "|---|---:|---:|---:|---:|---:|",
    `| ${b.name} (baseline) | ${b.median.toFixed(1)} | ${b.p95.toFixed(1)} | 1.00× | ${ratio(b.p95)} | |`,
    ...result.cases.map(
      (c) =>
        `| ${c.name} | ${c.median.toFixed(1)} | ${c.p95.toFixed(1)} | ${ratio(c.median)} | ${ratio(c.p95)} | ${c.target ? `≤ ${c.target}×` : ""} |`,
    ),
  ].join("\n");
}

/** The median over rounds of a/b within each round: steadier than a ratio of medians when the machine drifts. */
export function pairedRatio(a, b) {
  return median(a.samples.map((x, i) => x / b.samples[i]));
}

/** One line per case that has a target: its ratio, and whether the target is met. */
export function verdicts(result) {
  return result.cases
    .filter((c) => c.target)
    .map((c) => {
      const verdict = c.ratio <= c.target ? "within" : `**${(c.ratio / c.target).toFixed(2)}× over**`;
      return `- ${c.name} / ${result.baseline.name}: **${c.ratio.toFixed(2)}×** (target ≤ ${c.target}×: ${verdict})`;
    })
    .join("\n");
}
