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

/**
 * Runs `rounds` rounds; in each, the baseline and then every case once (the
 * order of cases rotates per round). Returns medians in ms.
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
    baseline: { name: baseline.name, median: base },
    cases: cases.map((c) => {
      const m = median(samples.get(c.name));
      return { name: c.name, median: m, ratio: m / base, target: c.target ?? null };
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
