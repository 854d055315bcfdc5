// A year of history for `npm run bench`: every hook event and the agent commands on a fresh store and on
// one holding a generated year (test/helpers/year-gen.ts through the store's own append path: 20,000 ended
// sessions, ~1,000,000 events, 300,000 claim-history rows, sub-agent and safety-net blobs, owner versions
// kept and trimmed by the retention policy), each against
// `node -e 0` in the same rounds; then `tandem gc` on that year: what it frees, and a hook's latency
// while it runs.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import { compare, median, pairedRatio, timeOnce } from "./lib.mjs";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

function repoFixture(work, name) {
  const repo = join(work, name);
  mkdirSync(repo);
  execFileSync("git", ["init", "-q", "-b", "main", repo]);
  const id = ["-c", "user.name=b", "-c", "user.email=b@b"];
  execFileSync("git", ["-C", repo, ...id, "commit", "-q", "--allow-empty", "-m", "i"]);
  return repo;
}

/** Bundles the generator (TypeScript sources) and appends a year to `repo`'s store. */
function generateYear(work, repo, inCheckout) {
  const gen = join(work, "gen-history.cjs");
  buildSync({
    entryPoints: [here("./gen-history.ts")],
    bundle: true,
    platform: "node",
    format: "cjs",
    external: ["better-sqlite3", "bindings"],
    outfile: gen,
    logLevel: "warning",
  });
  const env = { ...process.env, NODE_PATH: here("../node_modules") };
  // The year lived in this checkout (its claim history and touched paths are the checkout's), unless
  // BENCH_HISTORY_WORKTREE=other keeps it under the generator's own path, as the first tables had it.
  const args = [gen, join(repo, ".git", "tandem"), ...(inCheckout ? ["", realpathSync(repo)] : [])];
  const out = execFileSync(process.execPath, args, { env, encoding: "utf8" });
  return JSON.parse(out);
}

const payload = (repo, session, event, extra = {}) =>
  JSON.stringify({ session_id: session, cwd: repo, hook_event_name: event, ...extra });
const writeTool = (repo, file) => ({
  tool_name: "Write",
  tool_input: { file_path: join(repo, file), content: "x" },
  tool_use_id: "t1",
});

/**
 * The live part, the same in both stores: a peer holding a file, the measured session holding one.
 * Returns the size of the measured session's session-start answer: the context its agent is given.
 */
function liveState(bin, repo, env) {
  // Room for any answer: its size is what is reported, whatever it is.
  const hook = (event, input) =>
    execFileSync(process.execPath, [bin, "hook", "claude-code", event], {
      cwd: repo,
      env,
      input,
      maxBuffer: 1 << 30,
    });
  let started = 0;
  for (const s of ["bench-peer", "bench-live"]) {
    started = hook("session-start", payload(repo, s, "SessionStart", { source: "startup" })).length;
    hook("pre-tool-use", payload(repo, s, "PreToolUse", writeTool(repo, `${s}.txt`)));
  }
  return started;
}

/**
 * A big store's first session start launches the daily background check (`gc --auto`, decision
 * 0012), which reads the whole file for a few seconds: the rounds measure the steady state after it.
 */
function waitForUpkeep(repo) {
  if (!existsSync("/proc")) return;
  const running = () =>
    readdirSync("/proc").some((pid) => {
      if (!/^\d+$/.test(pid)) return false;
      try {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
        return cmd.includes("gc\0--auto") && cmd.includes(repo);
      } catch {
        return false;
      }
    });
  for (const end = Date.now() + 300_000; running() && Date.now() < end; )
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
}

function cases(bin, repo, env, label) {
  let n = 0;
  const c = (name, args, extra = {}) => ({
    name: `${label}: ${name}`,
    cmd: process.execPath,
    args: [bin, ...args],
    cwd: repo,
    env,
    ...extra,
  });
  const hook = (event, input, extra = {}) => c(event, ["hook", "claude-code", event], { input, ...extra });
  const fresh = () => `bench-new-${label}-${n++}`;
  const startCase = hook("session-start", "");
  startCase.before = () => {
    startCase.input = payload(repo, fresh(), "SessionStart", { source: "startup" });
  };
  const endCase = hook("session-end", "");
  endCase.before = () => {
    const id = fresh();
    execFileSync(process.execPath, [bin, "hook", "claude-code", "session-start"], {
      cwd: repo,
      env,
      input: payload(repo, id, "SessionStart", { source: "startup" }),
      stdio: ["pipe", "ignore", "pipe"],
    });
    endCase.input = payload(repo, id, "SessionEnd", { reason: "exit" });
  };
  const live = (event, extra) => payload(repo, "bench-live", event, extra);
  // The Write pair as the client runs it, the file rewritten in between: new bytes every round, so
  // every post-tool-use keeps a new version (a blob), and both hooks run the owner watch.
  const pre = live("PreToolUse", writeTool(repo, "bench-live.txt"));
  const post = live("PostToolUse", { ...writeTool(repo, "bench-live.txt"), tool_response: {} });
  const script = `"$@" hook claude-code pre-tool-use <<'EOF_PRE' >/dev/null\n${pre}\nEOF_PRE\ndate +%N > bench-live.txt\n"$@" hook claude-code post-tool-use <<'EOF_POST' >/dev/null\n${post}\nEOF_POST\n`;
  const pair = {
    name: `${label}: Write pair, pre + new bytes + post`,
    cmd: "sh",
    args: ["-c", script, "sh", process.execPath, bin],
    cwd: repo,
    env,
  };
  return [
    startCase,
    hook("user-prompt-submit", live("UserPromptSubmit", { prompt: "go on" })),
    hook("pre-tool-use", live("PreToolUse", writeTool(repo, "bench-live.txt"))),
    hook("post-tool-use", live("PostToolUse", { ...writeTool(repo, "bench-live.txt"), tool_response: {} })),
    pair,
    hook("notification", live("Notification", { message: "waiting" })),
    hook("stop", live("Stop", { stop_hook_active: false, last_assistant_message: "ok" }), {
      okCodes: [0, 2],
    }),
    endCase,
    c("status", ["status", "--session", "bench-live"]),
    c("status --end-turn", ["status", "--end-turn", "--session", "bench-live"], { okCodes: [0, 1] }),
    c("claims", ["claims"]),
    c("sessions", ["sessions"]),
    c("watch --once", ["watch", "--once"]),
  ];
}

/** fresh[0], year[0], fresh[1], …: each command's two stores run back to back in every round. */
const interleave = (fresh, year) => fresh.flatMap((c, i) => [c, year[i]]);

function historyTable(result) {
  const byName = new Map(result.cases.map((c) => [c.name, c]));
  const names = result.cases.filter((c) => c.name.startsWith("fresh: ")).map((c) => c.name.slice(7));
  const rows = [
    "| command | fresh ms | year ms | fresh / node | year / node | year / fresh (medians) | year / fresh, per round | target |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    `| node -e 0 (baseline) | ${result.baseline.median.toFixed(1)} | | | | | | |`,
  ];
  const over = [];
  for (const name of names) {
    const f = byName.get(`fresh: ${name}`);
    const y = byName.get(`year: ${name}`);
    const ratio = y.median / f.median;
    // The two stores' calls sit side by side in each round: their per-round ratio sees the same load.
    const perRound = pairedRatio(y, f);
    if (ratio > 1.1 || perRound > 1.1)
      over.push(`${name} (${ratio.toFixed(2)}× by medians, ${perRound.toFixed(2)}× per round)`);
    rows.push(
      `| ${name} | ${f.median.toFixed(1)} | ${y.median.toFixed(1)} | ${f.ratio.toFixed(2)}× | ${y.ratio.toFixed(2)}× | ${ratio.toFixed(2)}× | **${perRound.toFixed(2)}×** | ≤ 1.1× |`,
    );
  }
  const verdict = over.length
    ? `Over target: ${over.join(", ")}.`
    : "Every command is within 1.1× of its fresh figure, by medians and per round.";
  return [rows.join("\n"), "", verdict].join("\n");
}

/** Pre-tool-use latencies while `tandem gc` runs on the year, against the same hook just before. */
function duringGc(bin, repo, env, work) {
  const hook = {
    cmd: process.execPath,
    args: [bin, "hook", "claude-code", "pre-tool-use"],
    cwd: repo,
    env,
    input: payload(repo, "bench-live", "PreToolUse", writeTool(repo, "bench-live.txt")),
  };
  const quiet = Array.from({ length: 15 }, () => timeOnce(hook));
  const report = join(work, "gc.json");
  const done = join(work, "gc.done");
  const started = performance.now();
  spawn("sh", ["-c", `"$0" "$1" gc --json > "$2"; touch "$3"`, process.execPath, bin, report, done], {
    cwd: repo,
    env,
    stdio: "ignore",
  });
  const busy = [];
  while (!existsSync(done)) busy.push(timeOnce(hook));
  const gcMs = performance.now() - started;
  const sorted = (xs) => [...xs].sort((a, b) => a - b);
  const p90 = (xs) => sorted(xs)[Math.floor(xs.length * 0.9)];
  return {
    gc: JSON.parse(readFileSync(report, "utf8")),
    gcMs,
    quiet: { median: median(quiet), p90: p90(quiet), max: Math.max(...quiet) },
    busy: { n: busy.length, median: median(busy), p90: p90(busy), max: Math.max(...busy) },
  };
}

const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/** What the year kept of its owners' versions, and what the retention policy (decision 0065) let go. */
function retentionLines(made) {
  if (!made.retention) return [];
  const r = made.retention;
  return [
    `Its sessions' own Writes kept ${made.keptVersions.toLocaleString("en")} owner versions (two files once each per session,`,
    `every 25th session one file 30 times, every tenth of those clobbered once: ${made.clobbers} clobbers). The`,
    "retention policy was then in force over it, at its default retention.* bounds: a gc whose age bound no",
    `session reaches let go ${r.expired.toLocaleString("en")} middle versions (recorded as work.expired); the versions left hold`,
    `${mb(r.savedBytes)}${r.over ? `, ${r.over} session(s) still over their bound` : ""}.`,
  ];
}

export function historyBench(bin, rounds) {
  const work = mkdtempSync(join(tmpdir(), "tandem-bench-history-"));
  const env = { ...process.env, XDG_CONFIG_HOME: join(work, "xdg") };
  const fresh = repoFixture(work, "fresh");
  const year = repoFixture(work, "year");
  const inCheckout = process.env.BENCH_HISTORY_WORKTREE !== "other";
  const made = generateYear(work, year, inCheckout);
  const startBytes = { fresh: liveState(bin, fresh, env), year: liveState(bin, year, env) };
  waitForUpkeep(year);
  const load = () =>
    loadavg()
      .map((x) => x.toFixed(1))
      .join(" / ");
  const loadBefore = load();
  const startedAt = new Date().toISOString();
  const result = compare(
    { name: "node -e 0", cmd: process.execPath, args: ["-e", "0"] },
    interleave(cases(bin, fresh, env, "fresh"), cases(bin, year, env, "year")),
    rounds,
  );
  const loadAfter = load();
  const head = [
    "## A year of history",
    "",
    `The year: ${made.sessions.toLocaleString("en")} ended sessions, ${made.events.toLocaleString("en")} events`,
    `(300,000 claim-history rows), ${mb(made.blobBytes)} of sub-agent and safety-net blobs, generated through the`,
    "store's own append path (test/helpers/year-gen.ts).",
    ...retentionLines(made),
    "Both stores then get the same live part: a peer",
    "holding a file and the measured session holding one. session-start and session-end use a new session",
    "each round. No age-bound gc has run. The year's first session start launched the daily background check",
    "(decision 0012); the rounds start once it has finished.",
    inCheckout
      ? `The year was lived in the measured checkout (${made.moved.toLocaleString("en")} cells moved from the generator's worktree path to it).`
      : "The year stays under the generator's own worktree path (BENCH_HISTORY_WORKTREE=other): the checkout's hooks see none of its claim history or touched paths.",
    `${rounds} rounds from ${startedAt}; load average (1/5/15 min) ${loadBefore} before the rounds, ${loadAfter} after.`,
    `session-start's answer (the context the agent is given) for the measured session: ${startBytes.fresh.toLocaleString("en")} bytes on the fresh store, ${startBytes.year.toLocaleString("en")} on the year.`,
    "",
    historyTable(result),
    "",
  ];
  // The table is out before gc runs: on a loaded machine gc (at nice 15) can take many minutes.
  process.stderr.write(`${head.join("\n")}\n`);
  if (process.env.BENCH_HISTORY_GC === "0") {
    rmSync(work, { recursive: true, force: true });
    return [...head, "(`tandem gc` on the year skipped: BENCH_HISTORY_GC=0.)", ""].join("\n");
  }
  const g = duringGc(bin, year, env, work);
  rmSync(work, { recursive: true, force: true });
  const r = g.gc;
  return [
    ...head,
    "### `tandem gc` on that year (30-day retention)",
    "",
    `- Freed: ${r.sessions.toLocaleString("en")} ended sessions compacted (${r.events.toLocaleString("en")} events replaced by one summary each), ${r.subagents} sub-agents' artifacts and ${r.preserved} preserved versions expired, ${r.policyVersions} more beyond the retention.* bounds, ${r.blobs} blobs deleted (${mb(r.blobBytes)}).`,
    `- Store: ${mb(r.dbBytesBefore)} before, ${mb(r.dbBytesAfter)} after, ${mb(r.freeBytes)} free for reuse (vacuum: ${r.vacuum}).`,
    `- gc took ${(g.gcMs / 1000).toFixed(1)} s. pre-tool-use (1-file Write) meanwhile, ${g.busy.n} calls back to back: median ${g.busy.median.toFixed(1)} ms, p90 ${g.busy.p90.toFixed(1)} ms, max ${g.busy.max.toFixed(1)} ms; just before gc: median ${g.quiet.median.toFixed(1)} ms, p90 ${g.quiet.p90.toFixed(1)} ms, max ${g.quiet.max.toFixed(1)} ms.`,
    "",
  ].join("\n");
}
