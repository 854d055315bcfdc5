// Before/after for issue 27 (`BENCH_ONLY=compare`, BENCH_BASE_BIN=<older build>/dist/tandem.cjs): the
// hook cases of bench/hooks.mjs and bench/server-hooks.mjs on that build and on this one, in the same
// rounds as `node -e 0`, so each case's cost on the two builds is read off the same machine moment
// (the box is shared; an absolute figure from another run says little). Each build gets its own
// repositories: a build must never open a store another build migrated.
import { existsSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { compare, median, percentile, spreadTable, timeOnce } from "./lib.mjs";
import {
  buildOf,
  patchPayload,
  postThin,
  repoFixture,
  SHELL_MIX,
  servedEnv,
  shellPayload,
  startServer,
  stopServer,
  thinRequest,
  writePayload,
} from "./server-fixtures.mjs";
import { nodeZero, seedShellFiles } from "./server-hooks.mjs";

const BEFORE = "before";
const THIS = "this";

/** The Node-path cases of bench/hooks.mjs (same payloads), on `bin`, in a repository of their own. */
function nodeCases(label, bin) {
  const fx = repoFixture(`tandem-bench-compare-node-${label}-`);
  const { repo, env } = fx;
  const hook = (name, args, payload, extra = {}) => ({
    name: `Node, ${name} [${label}]`,
    cmd: process.execPath,
    args: [bin, "hook", ...args],
    cwd: repo,
    env,
    input: JSON.stringify(payload),
    ...extra,
  });
  const files = Array.from({ length: 100 }, (_, i) => `p/f${i}.txt`);
  const cases = [
    hook("no-op hook (unknown event)", ["claude-code", "notification"], {
      session_id: "noop",
      cwd: repo,
      hook_event_name: "Notification",
    }),
    hook(
      "pre-tool-use, 1-file Write",
      ["claude-code", "pre-tool-use"],
      writePayload(repo, "bench-1", "w1.txt"),
    ),
    hook(
      "pre-tool-use, 100-file apply_patch",
      ["codex", "pre-tool-use"],
      patchPayload(repo, "bench-patch", files),
    ),
    hook(
      "stop",
      ["claude-code", "stop"],
      {
        session_id: "bench-1",
        cwd: repo,
        hook_event_name: "Stop",
        stop_hook_active: false,
        last_assistant_message: "ok",
      },
      { okCodes: [0, 2] },
    ),
  ];
  return { fixtures: [fx], cases };
}

/** The server cases of bench/server-hooks.mjs through `bin`'s own thin client and resident server. */
function serverCases(label, bin) {
  const fx = repoFixture(`tandem-bench-compare-server-${label}-`);
  const { repo, env } = fx;
  seedShellFiles(repo);
  fx.server = startServer(bin, repo, env);
  const served = servedEnv(env);
  const call = (name, args, payload) => ({
    name: `server, ${name} [${label}]`,
    cmd: join(dirname(bin), "tandem"),
    args: ["hook", ...args],
    cwd: repo,
    env: served,
    input: payload && JSON.stringify(payload),
  });
  const write = call(
    "pre-tool-use, 1-file Write",
    ["claude-code", "pre-tool-use"],
    writePayload(repo, "b-w", "w.txt"),
  );
  const shell = call("pre-tool-use, shell command (mix)", ["codex", "pre-tool-use"]);
  let n = 0;
  shell.before = () => {
    const command = SHELL_MIX[n % SHELL_MIX.length];
    shell.input = JSON.stringify(shellPayload(repo, "b-sh", "PreToolUse", command, `call-sh-${n++}`));
  };
  return { fixtures: [fx], cases: [write, shell], served: { label, bin, fx, write, shell } };
}

/**
 * The servers' own time for the same two requests, posted straight to each server's socket from this
 * process (no `sh` or `bash` started), both builds in every round: what the server does, without the
 * thin client, whose script also differs between the builds.
 */
async function serverShares(entries, rounds) {
  const samples = new Map();
  const ask = async ({ bin, fx }, c) => {
    const forwarded = { XDG_CONFIG_HOME: fx.env.XDG_CONFIG_HOME, PATH: fx.env.PATH, HOME: fx.env.HOME };
    c.before?.();
    const body = thinRequest(buildOf(bin), fx.repo, forwarded, c.args, c.input);
    const t0 = performance.now();
    const res = await postThin(fx.server.socket, body);
    const ms = performance.now() - t0;
    // Builds before decision 0027 answered with an `exit 0` script instead of `tandem-answer 0`.
    const ok = res.text.startsWith("tandem-answer 0 ") || res.text.includes("exit 0");
    if (res.status !== 200 || !ok)
      throw new Error(`${c.name} posted to the server: ${res.status} ${res.text}`);
    return ms;
  };
  for (let r = 0; r < rounds; r++) {
    // Alternate which build goes first, so neither always follows the other's work.
    const order = r % 2 ? [...entries].reverse() : entries;
    for (const e of order) {
      for (const c of [e.write, e.shell]) {
        const key = c.name;
        if (!samples.has(key)) samples.set(key, []);
        samples.get(key).push(await ask(e, c));
      }
    }
  }
  return samples;
}

/** Per-round this/before ratios of one case: median and interquartile range. */
function paired(thisSamples, beforeSamples) {
  const ratios = thisSamples.map((x, i) => x / beforeSamples[i]);
  return { p50: median(ratios), q1: percentile(ratios, 0.25), q3: percentile(ratios, 0.75) };
}

const caseName = (name) => name.replace(/ \[(before|this)\]$/, "");

function pairTable(byName, names) {
  const rows = [
    "| case | before p50 ms | this p50 ms | before p95 ms | this p95 ms | this / before, per round (p50) | middle half of the per-round ratios |",
    "|---|---:|---:|---:|---:|---:|---:|",
  ];
  for (const name of names) {
    const b = byName.get(`${name} [${BEFORE}]`);
    const t = byName.get(`${name} [${THIS}]`);
    const p = paired(t.samples, b.samples);
    rows.push(
      `| ${name} | ${b.median.toFixed(1)} | ${t.median.toFixed(1)} | ${b.p95.toFixed(1)} | ${t.p95.toFixed(1)} | **${p.p50.toFixed(2)}×** | ${p.q1.toFixed(2)}–${p.q3.toFixed(2)}× |`,
    );
  }
  return rows.join("\n");
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(" / ");

export async function compareBench(bin, rounds) {
  const base = process.env.BENCH_BASE_BIN;
  if (!base) {
    process.stderr.write(
      "bench compare: skipped, BENCH_BASE_BIN is not set (set it to an older build's dist/tandem.cjs to compare this build with it)\n",
    );
    return "";
  }
  for (const f of [base, join(dirname(base), "tandem")])
    if (!existsSync(f))
      throw new Error(
        `BENCH_BASE_BIN: ${f} does not exist; build that commit first (npm run build in its worktree)`,
      );
  const builds = [
    [BEFORE, base],
    [THIS, bin],
  ];
  const fixtures = [];
  try {
    const cases = [];
    const served = [];
    for (const [label, b] of builds) {
      const n = nodeCases(label, b);
      const s = serverCases(label, b);
      fixtures.push(...n.fixtures, ...s.fixtures);
      cases.push(...n.cases, ...s.cases);
      served.push(s.served);
    }
    // Interleave so the two builds of one case sit side by side in each round's order.
    const half = cases.length / 2;
    const interleaved = cases.slice(0, half).flatMap((c, i) => [c, cases[half + i]]);
    // Warm-up: stores migrated, claims taken, the servers' caches filled, as for an agent at work.
    for (const c of interleaved) {
      c.before?.();
      timeOnce(c);
    }
    const loadBefore = load();
    const startedAt = new Date().toISOString();
    const result = compare(nodeZero(fixtures[0].env, fixtures[0].repo), interleaved, rounds);
    // Posting costs a few ms, so the servers' share takes five times the rounds for a steadier ratio.
    const shares = await serverShares(served, rounds * 5);
    const loadAfter = load();
    const byName = new Map(result.cases.map((c) => [c.name, c]));
    const names = [...new Set(result.cases.map((c) => caseName(c.name)))];
    const shareCases = new Map(
      [...shares].map(([name, samples]) => [
        name,
        { samples, median: median(samples), p95: percentile(samples, 0.95) },
      ]),
    );
    const shareNames = [...new Set([...shares.keys()].map(caseName))];
    return [
      "## Before/after issue 27",
      "",
      `\`BENCH_BASE_BIN=${base}\`, ${rounds} rounds from ${startedAt}; load average (1/5/15 min) ${loadBefore} before, ${loadAfter} after.`,
      "",
      spreadTable(result),
      "",
      pairTable(byName, names),
      "",
      `The servers' own time, the same requests posted to each server's socket from the bench process, ${rounds * 5} rounds:`,
      "",
      pairTable(shareCases, shareNames),
      "",
    ].join("\n");
  } finally {
    for (const fx of fixtures) {
      if (fx.server) stopServer(fx.server);
      rmSync(fx.work, { recursive: true, force: true });
    }
  }
}
