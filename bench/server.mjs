// The resident server path for `npm run bench` (issue 16): hooks and `status --end-turn` through
// the wired command (dist/tandem, the thin client) with a server up, against `node -e 0` or one
// `git status`; the Node fallback against today's direct Node call; issue 11's pair. The hook cases
// are in bench/server-hooks.mjs; 16 agents at once and the server's memory in bench/server-load.mjs.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { compare, pairedRatio, spreadTable, verdicts } from "./lib.mjs";
import { fixture as safetyFixture } from "./safety.mjs";
import {
  endTurnFixture,
  repoFixture,
  SHELL_MIX,
  servedEnv,
  shellPayload,
  startServer,
  stopServer,
  writePayload,
} from "./server-fixtures.mjs";
import { hookCases, nodeZero, seedShellFiles } from "./server-hooks.mjs";
import { loadBench, memoryBench } from "./server-load.mjs";

/** Today's direct Node call against the thin client told to use Node (TANDEM_SERVER=0), no server up. */
function fallbackCases(bin, rounds) {
  const { work, repo, env } = repoFixture();
  seedShellFiles(repo);
  const thin = join(dirname(bin), "tandem");
  const off = { ...env, TANDEM_SERVER: "0" };
  const write = JSON.stringify(writePayload(repo, "f-w", "w.txt"));
  const shell = JSON.stringify(shellPayload(repo, "f-sh", "PreToolUse", SHELL_MIX[4], "call-f"));
  const direct = (name, client, input) => ({ name, cmd: process.execPath, args: [bin], client, input, env });
  const fallback = (name, client, input) => ({ name, cmd: thin, args: [], client, input, env: off });
  const cases = [
    direct("Write: node dist/tandem.cjs hook (today)", "claude-code", write),
    fallback("Write: TANDEM_SERVER=0 dist/tandem hook", "claude-code", write),
    direct("shell: node dist/tandem.cjs hook (today)", "codex", shell),
    fallback("shell: TANDEM_SERVER=0 dist/tandem hook", "codex", shell),
  ].map(({ client, ...c }) => ({ ...c, cwd: repo, args: [...c.args, "hook", client, "pre-tool-use"] }));
  try {
    for (const c of cases) execFileSync(c.cmd, c.args, { cwd: repo, env: c.env, input: c.input });
    return compare(nodeZero(env, repo), cases, rounds);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Issue 11's pair: an opaque command's pre-tool-use and post-tool-use, 10 live peer files dirty. */
function pairCases(bin, rounds) {
  const { work, repo, env } = safetyFixture(bin, 10);
  const thin = join(dirname(bin), "tandem");
  const opaque = (event) =>
    JSON.stringify(shellPayload(repo, "actor", event, "python3 -c 'import sys'", "call-opaque"));
  const [pre, post] = [opaque("PreToolUse"), opaque("PostToolUse")];
  const script = `"$@" hook codex pre-tool-use <<'EOF_PRE' >/dev/null\n${pre}\nEOF_PRE\n"$@" hook codex post-tool-use <<'EOF_POST' >/dev/null\n${post}\nEOF_POST\n`;
  const pair = (name, launcher, extra = {}) => ({
    name,
    cmd: "sh",
    args: ["-c", script, "sh", ...launcher],
    cwd: repo,
    env,
    ...extra,
  });
  const server = startServer(bin, repo, env);
  try {
    const cases = [
      pair("pre + post through dist/tandem (server)", [thin], { env: servedEnv(env), target: 1.5 }),
      pair("pre + post through node dist/tandem.cjs (today)", [process.execPath, bin]),
    ];
    for (const c of cases) execFileSync(c.cmd, c.args, { cwd: repo, env: c.env }); // the peer's files copied
    return compare(nodeZero(env, repo), cases, rounds);
  } finally {
    stopServer(server);
    rmSync(work, { recursive: true, force: true });
  }
}

/** `status --end-turn` over 1,000 owned paths in one repository, through the server and through Node. */
function endTurnCases(bin, rounds) {
  const fx = endTurnFixture(bin);
  const thin = join(dirname(bin), "tandem");
  // BENCH_SERVER_PROF=<dir>: the server writes a CPU profile there when it is stopped.
  const prof = process.env.BENCH_SERVER_PROF;
  const nodeArgs = prof ? ["--cpu-prof", `--cpu-prof-dir=${prof}`] : [];
  const server = startServer(bin, fx.repo, fx.env, { nodeArgs });
  try {
    const cases = [
      { name: "git status --porcelain", cmd: "git", args: ["status", "--porcelain"] },
      { name: "dist/tandem status --end-turn (server)", cmd: thin, args: fx.args, env: servedEnv(fx.env) },
      {
        name: "node dist/tandem.cjs status --end-turn (today)",
        cmd: process.execPath,
        args: [bin, ...fx.args],
      },
    ].map((c) => ({ cwd: fx.repo, env: fx.env, ...c }));
    for (const c of cases) execFileSync(c.cmd, c.args, { cwd: fx.repo, env: c.env, stdio: "ignore" });
    return compare(nodeZero(fx.env, fx.repo), cases, rounds);
  } finally {
    stopServer(server);
    rmSync(fx.work, { recursive: true, force: true });
  }
}

const fmt = (x) => `${x.toFixed(2)}×`;

/** The end-turn table and its lines: the section's own, and what `BENCH_SERVER_PARTS=end-turn` prints. */
function endTurnSection(endTurn) {
  const [gitCase, thinEnd, nodeEnd] = endTurn.cases;
  const ratio = thinEnd.median / gitCase.median;
  const above = (thinEnd.median - gitCase.median) / gitCase.median;
  const verdict = (x) => (x <= 3 ? "within" : `**${(x / 3).toFixed(2)}× over**`);
  return [
    "### End-turn check, one repository",
    "",
    "1,000 paths owned by one session in one repository, committed and pushed, so the check passes.",
    "The issue's target is the time *above* one `git status`, in `git status`es (its wording: \"above the",
    'cost of one git status"); the stricter total / one `git status` is printed beside it.',
    "",
    spreadTable(endTurn),
    "",
    `- through the server, above one \`git status\`: ${(thinEnd.median - gitCase.median).toFixed(1)} ms = **${fmt(above)}** one \`git status\` (target ≤ 3×: ${verdict(above)})`,
    `- stricter, the whole check / one \`git status --porcelain\`: ${fmt(ratio)} (≤ 3×: ${verdict(ratio)}); p95 ${fmt(thinEnd.p95 / gitCase.median)}; median of the per-round ratios ${fmt(pairedRatio(thinEnd, gitCase))}`,
    `- today's Node path, time above \`node -e 0\` / one \`git status\` (the issue's old measure): ${fmt((nodeEnd.median - endTurn.baseline.median) / gitCase.median)}`,
    "",
  ];
}

/**
 * Runs every server case and returns a markdown section for bench/RESULTS.md.
 * `BENCH_SERVER_PARTS=end-turn` runs only the end-turn table (seconds instead of minutes), for
 * work on that check; it prints that table alone, not the section.
 */
export async function serverBench(bin, rounds) {
  const parts = process.env.BENCH_SERVER_PARTS?.split(",") ?? null;
  if (parts?.length === 1 && parts[0] === "end-turn")
    return endTurnSection(endTurnCases(bin, Math.min(rounds, 12))).join("\n");
  if (parts) throw new Error(`BENCH_SERVER_PARTS: only "end-turn" is known, not ${parts.join(",")}`);
  // Each round of the later tables runs two to four Node processes: fewer rounds keep the section short.
  const few = Math.min(rounds, 20);
  const fewer = Math.min(rounds, 12);
  const { result: hooks, server: serverShare } = await hookCases(bin, rounds);
  // The fallback's verdict is a difference of a few percent: it gets all the rounds.
  const fallback = fallbackCases(bin, rounds);
  const pairs = pairCases(bin, few);
  const endTurn = endTurnCases(bin, fewer);
  const load = await loadBench(bin);
  const memory = await memoryBench(bin, { total: Number(process.env.BENCH_SERVER_HOOKS ?? 10_000) });
  const [fw, tw, fs, ts] = fallback.cases;
  const [thinPair, nodePair] = pairs.cases;
  return [
    "## Resident server (issue 16)",
    "",
    "Every case runs `dist/tandem` — the wired hook command, the POSIX `sh` thin client — with a `tandem serve`",
    "started by hand for the fixture's repository (stopped after it), so each figure is `sh` handing over to",
    "`bash`, which asks over the server's loopback port with built-ins, + the server's work (one row: `curl`",
    "over the unix socket instead, the way for shells without bash 4). The calls run with `TANDEM_NODE` naming no program: a call the server did not answer",
    "would have fallen back to Node and failed the bench instead of being timed. Each case alternates with",
    `\`node -e 0\` in every round (${rounds} rounds for the hooks and the fallback, ${few} for the pair, ${fewer} for`,
    "the end-turn check); p95 is the nearest-rank 95th percentile of the rounds.",
    "",
    "### Hooks through the wired command",
    "",
    "The Write and the apply_patch repeat one payload (the claim is held after the first call). The shell",
    `case cycles through ${SHELL_MIX.length} Codex shell commands, half read-only, half writing files. The post-tool-use`,
    "follows, each round, an untimed pre-tool-use of `date > notes/post.txt` and that write.",
    "",
    spreadTable(hooks),
    "",
    verdicts(hooks),
    "",
    "The server's share: the same requests posted straight to its socket from the bench process (no `sh`, `cat`",
    `or \`curl\` started), in ${rounds} rounds of their own after the table above, alternating with \`node -e 0\``,
    `(median ${serverShare[0].baseline.toFixed(1)} ms in those rounds).`,
    "",
    "| case | server alone, p50 ms | p95 ms | p50 / node -e 0 | through dist/tandem (table above), p50 / node -e 0 |",
    "|---|---:|---:|---:|---:|",
    ...serverShare.map(
      (s) =>
        `| ${s.name} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${fmt(s.ratio)} | ${fmt(hooks.cases.find((c) => c.name === s.name).ratio)} |`,
    ),
    "",
    "### Fallback: no server",
    "",
    "`TANDEM_SERVER=0 dist/tandem hook …` (the thin client that runs Node) against today's direct call, no server up.",
    "",
    spreadTable(fallback),
    "",
    `- fallback / direct, median of the per-round ratios (the two run in the same round): Write **${fmt(pairedRatio(tw, fw))}**, shell **${fmt(pairedRatio(ts, fs))}** — target: no slower (≤ 1.00×)`,
    `- ratio of the medians: Write ${fmt(tw.median / fw.median)} (p95 ${fmt(tw.p95 / fw.p95)}), shell ${fmt(ts.median / fs.median)} (p95 ${fmt(ts.p95 / fs.p95)})`,
    "",
    "### Issue 11's pair",
    "",
    "An opaque command's (`python3 -c …`) pre-tool-use and post-tool-use back to back in one `sh -c`, while a live",
    "peer holds 10 dirty files (bench/safety.mjs's fixture); the peer's files were copied on a warm-up call.",
    "",
    spreadTable(pairs),
    "",
    verdicts(pairs),
    `- median of the per-round ratios: through the server ${fmt(pairedRatio(thinPair, pairs.baseline))}, through Node today ${fmt(pairedRatio(nodePair, pairs.baseline))}`,
    `- the pair through the server / two \`node -e 0\`: **${fmt(thinPair.median / (2 * pairs.baseline.median))}**; through Node today / two \`node -e 0\`: ${fmt(nodePair.median / (2 * pairs.baseline.median))}`,
    "",
    ...endTurnSection(endTurn),
    load,
    memory,
  ].join("\n");
}
