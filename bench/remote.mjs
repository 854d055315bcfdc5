// Presence over the git remote for `npm run bench` (issue 17): hook latency with sync on and off,
// one sync round against one `git fetch` with 1, 10 and 200 checkouts' presence on the remote, and
// `tandem conflicts` over 200 checkouts against `git status`. Fixtures in bench/remote-fixtures.mjs.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { compare, pairedRatio, spreadTable } from "./lib.mjs";
import {
  clearPresence,
  cloneOf,
  countBytes,
  gitTimes,
  remoteFixture,
  writePresenceRefs,
} from "./remote-fixtures.mjs";
import { startServer, stopServer } from "./server-fixtures.mjs";

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const fmt = (x) => `${x.toFixed(2)}×`;
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Waits for the background round a hook may have started to end, so it does not run during the next
 * measurement: up to 1 s for its lock to appear, then up to 10 s for its holder to exit, then kills
 * that holder (by the pid in the lock).
 */
function settle(stateDir, expectRound) {
  const lock = join(stateDir, "sync.lock");
  for (let i = 0; expectRound && i < 40 && !existsSync(lock); i++) sleep(25);
  let pid = null;
  for (let i = 0; i < 400 && existsSync(lock); i++) {
    pid = Number(readFileSync(lock, "utf8").trim()) || pid;
    if (pid && !alive(pid)) break;
    sleep(25);
  }
  if (pid && alive(pid)) process.kill(pid, "SIGKILL");
}

/**
 * 1. A one-file Write pre-tool-use (a new file every call) with TANDEM_REMOTE=1 against =0: through
 * the Node path (`node dist/tandem.cjs`), or through the wired thin client with a server up, which
 * starts the round after it replied.
 */
function hookCases(bin, fx, rounds, via = "node") {
  const repo = cloneOf(fx, `hooks-${via}`);
  const stateDir = join(repo, ".git", "tandem");
  const mark = join(stateDir, "sync.mark");
  let n = 0;
  let started = 0;
  let onCalls = 0;
  let pending = false;
  // Before every measured call: if the last call had sync on, count the round it started (the hook
  // marks the start before spawning it) and wait for that round to end.
  const settleLast = () => {
    if (pending && existsSync(mark)) started++;
    settle(stateDir, pending);
    pending = false;
  };
  // spawn: the call finds no recent round and starts one; false: a round started just now (the
  // debounce mark is fresh), so the call only reads the remote tables and starts nothing.
  const hook = (name, remote, spawn = true) => {
    const c = {
      name,
      cmd: via === "node" ? process.execPath : thinOf(bin),
      args:
        via === "node"
          ? [bin, "hook", "claude-code", "pre-tool-use"]
          : ["hook", "claude-code", "pre-tool-use"],
      cwd: repo,
      env: { ...fx.env, TANDEM_REMOTE: remote },
      before() {
        settleLast();
        if (remote === "1" && spawn) {
          rmSync(mark, { force: true }); // so every call starts a round, not only one per 3 s
          onCalls++;
          pending = true;
        }
        if (remote === "1" && !spawn) writeFileSync(mark, ""); // dated now: "a round just started"
        const file = join(repo, `w${n++}.txt`);
        c.input = JSON.stringify({
          session_id: `bench-remote-${remote}`,
          cwd: repo,
          hook_event_name: "PreToolUse",
          tool_name: "Write",
          tool_input: { file_path: file, content: "x" },
          tool_use_id: `t${n}`,
        });
      },
    };
    return c;
  };
  const on = hook("pre-tool-use, Write of a new file, TANDEM_REMOTE=1", "1");
  const off = hook("pre-tool-use, Write of a new file, TANDEM_REMOTE=0", "0");
  const quiet = hook("pre-tool-use, Write of a new file, TANDEM_REMOTE=1, round debounced", "1", false);
  const base = {
    name: "node -e 0",
    cmd: process.execPath,
    args: ["-e", "0"],
    cwd: repo,
    env: fx.env,
    before: settleLast,
  };
  // Warm-up: the store created and migrated, one round run, before anything is timed.
  for (const c of [off, on]) {
    c.before();
    execFileSync(process.execPath, [bin, "hook", "claude-code", "pre-tool-use"], {
      cwd: repo,
      env: c.env,
      input: c.input,
    });
  }
  settleLast();
  const server = via === "server" ? startServer(bin, repo, fx.env) : null;
  try {
    [started, onCalls] = [0, 0];
    const result = compare(base, [on, off, quiet], rounds);
    settleLast();
    return { result, started, onCalls };
  } finally {
    if (server) stopServer(server);
  }
}

/** The thin client beside the bundle (dist/tandem). */
const thinOf = (bin) => join(dirname(bin), "tandem");

/** 2. One `tandem sync --json` against one `git fetch` with nothing new, `n` checkouts on the remote. */
function syncCases(bin, fx, n, rounds) {
  clearPresence(fx.bare); // earlier clones' own presence: exactly n other checkouts on the remote
  writePresenceRefs(fx.bare, n, fx.base, Date.now());
  const repo = cloneOf(fx, `sync-${n}`);
  const sync = (env = fx.env) =>
    execFileSync(process.execPath, [bin, "sync", "--json"], { cwd: repo, env, encoding: "utf8" });
  const fetch = () => execFileSync("git", ["fetch", "-q", "origin"], { cwd: repo, env: fx.env });
  // Bytes, in untimed runs: the first round (every document new, our own published), a round with
  // nothing new, a round after every other checkout published again, and the plain fetch.
  let first;
  const cold = countBytes(repo, () => {
    first = JSON.parse(sync());
  });
  const steady = countBytes(repo, sync);
  writePresenceRefs(fx.bare, n, fx.base, Date.now());
  const moved = countBytes(repo, sync);
  const plain = countBytes(repo, fetch);
  const where = gitTimes(fx.work, fx.env, sync);
  const cases = [
    {
      name: `tandem sync --json, ${n} on the remote, nothing new`,
      cmd: process.execPath,
      args: [bin, "sync", "--json"],
    },
    {
      name: `tandem sync --json, ${n} on the remote, all ${n} published again`,
      cmd: process.execPath,
      args: [bin, "sync", "--json"],
      before: () => writePresenceRefs(fx.bare, n, fx.base, Date.now()),
    },
    { name: "node -e 0", cmd: process.execPath, args: ["-e", "0"] },
  ].map((c) => ({ cwd: repo, env: fx.env, ...c }));
  const result = compare(
    {
      name: "git fetch origin (nothing new)",
      cmd: "git",
      args: ["fetch", "-q", "origin"],
      cwd: repo,
      env: fx.env,
    },
    cases,
    rounds,
  );
  return { n, repo, result, seen: first.seen.length, bytes: { cold, steady, moved, plain }, where };
}

/** 3. `tandem conflicts --json --no-fetch` over what the 200-checkout round fetched, against `git status`. */
function conflictCases(bin, fx, repo, rounds) {
  const args = [bin, "conflicts", "--json", "--no-fetch"];
  const out = JSON.parse(execFileSync(process.execPath, args, { cwd: repo, env: fx.env, encoding: "utf8" }));
  const result = compare(
    { name: "git status --porcelain", cmd: "git", args: ["status", "--porcelain"], cwd: repo, env: fx.env },
    [
      { name: "node -e 0", cmd: process.execPath, args: ["-e", "0"], cwd: repo, env: fx.env },
      { name: "tandem conflicts --json --no-fetch", cmd: process.execPath, args, cwd: repo, env: fx.env },
    ],
    rounds,
  );
  const where = gitTimes(fx.work, fx.env, (env) => execFileSync(process.execPath, args, { cwd: repo, env }));
  return { result, overlaps: out.overlaps.length, where };
}

const kb = (b) => `${(b / 1024).toFixed(1)} KiB`;
const gitLine = (where) =>
  [...where.entries()]
    .sort((a, b) => b[1].ms - a[1].ms)
    .map(([cmd, { count, ms }]) => `${cmd} ${count > 1 ? `×${count} ` : ""}${ms.toFixed(0)} ms`)
    .join(", ");
const gitTotal = (where) => [...where.values()].reduce((s, w) => s + w.ms, 0);

/** Runs every remote case and returns a markdown section for bench/RESULTS.md. */
export function remoteBench(bin, rounds) {
  const hookRounds = Math.min(rounds, 20);
  const syncRounds = Math.min(rounds, 6);
  const fx = remoteFixture();
  try {
    const hooks = hookCases(bin, fx, hookRounds);
    const served = hookCases(bin, fx, hookRounds, "server");
    const syncs = [1, 10, 200].map((n) => syncCases(bin, fx, n, syncRounds));
    const conflicts = conflictCases(bin, fx, syncs[2].repo, Math.min(rounds, 10));
    const [on, off, quiet] = hooks.result.cases;
    const [nodeZero, conflict] = conflicts.result.cases;
    return [
      "## Presence over the git remote (issue 17)",
      "",
      "A bare repository reached over `file://` and fresh clones of it. Other checkouts' presence is written",
      "straight into the bare remote with one `git fast-import`: per checkout, one parentless commit holding a",
      "`presence.json` shaped like a real one (three live sessions, each with a task, a branch, four claims and",
      "two dirty paths out of a pool of 600; about 1.2 KiB), force-written to `refs/tandem/presence/<id>`.",
      "",
      "### Hooks with sync on and off",
      "",
      "`node dist/tandem.cjs hook claude-code pre-tool-use` (the Node path, no server) for a Write of a new file",
      "every call, so a claim is taken each time, in a clone whose origin is the bare remote. With `TANDEM_REMOTE=1`",
      "each call starts a forced background round (`tandem sync --background`, detached): the bench removes the",
      "debounce mark before every call, and before every measured call waits for the previous round to end",
      `(killing it after 10 s), so no round runs during a measurement. ${hookRounds} rounds, each alternating all the`,
      `cases; ${hooks.started} of the ${hooks.onCalls} calls with sync on were seen to start a round.`,
      "",
      spreadTable(hooks.result),
      "",
      `- sync on / sync off: ratio of the medians **${fmt(on.median / off.median)}**, median of the per-round ratios ${fmt(pairedRatio(on, off))} (target: no difference beyond noise)`,
      `- p95 on / off: ${fmt(on.p95 / off.p95)}`,
      `- sync on but the round debounced (no process started) / sync off: ${fmt(quiet.median / off.median)}, per round ${fmt(pairedRatio(quiet, off))}`,
      "",
      "The same through the wired command, `dist/tandem hook …` with a `tandem serve` up (the default): the",
      "server starts the round after it has replied, so the hook does not wait for the spawn.",
      `${served.started} of the ${served.onCalls} calls with sync on were seen to start a round.`,
      "",
      spreadTable(served.result),
      "",
      `- sync on / sync off through the server: ratio of the medians **${fmt(served.result.cases[0].median / served.result.cases[1].median)}**, median of the per-round ratios ${fmt(pairedRatio(served.result.cases[0], served.result.cases[1]))} (target: no difference beyond noise)`,
      "",
      "### One sync round",
      "",
      "`node dist/tandem.cjs sync --json` in a clone against one `git fetch -q origin` of the same remote with",
      `nothing new (the baseline), alternating, ${syncRounds} rounds per size. "nothing new": no document changed`,
      "since the last round (ours is not published again either, it is younger than the 30 s interval);",
      '"all published again": before each of those rounds, untimed, every other checkout\'s ref is rewritten',
      "with a new document, so the round fetches all of them.",
      "",
      ...syncs.flatMap((s) => [spreadTable(s.result), ""]),
      "| checkouts on the remote | round, nothing new / git fetch | round, all published again / git fetch | git processes' time in one round (nothing new) |",
      "|---:|---:|---:|---|",
      ...syncs.map(
        (s) =>
          `| ${s.n} | ${fmt(s.result.cases[0].ratio)} | ${fmt(s.result.cases[1].ratio)} | ${gitTotal(s.where).toFixed(0)} ms: ${gitLine(s.where)} |`,
      ),
      "",
      "Bytes on the wire, counted by pointing `remote.origin.uploadpack` and `remote.origin.receivepack` at a",
      "wrapper that `tee`s each direction of `git upload-pack` / `git receive-pack` to a file (every byte of the",
      "protocol: ref advertisement, negotiation, pack), in untimed runs. Sent = from the clone to the remote.",
      "",
      "| checkouts | round | fetch sent | fetch received | push sent | push received |",
      "|---:|---|---:|---:|---:|---:|",
      ...syncs.flatMap((s) =>
        [
          ["first round (all new; ours published)", s.bytes.cold],
          ["nothing new", s.bytes.steady],
          ["all published again", s.bytes.moved],
          ["`git fetch origin`, nothing new", s.bytes.plain],
        ].map(
          ([label, b]) =>
            `| ${s.n} | ${label} | ${kb(b.fetchSent)} | ${kb(b.fetchReceived)} | ${kb(b.pushSent)} | ${kb(b.pushReceived)} |`,
        ),
      ),
      "",
      `(The first round saw ${syncs.map((s) => s.seen).join(", ")} other checkouts.)`,
      "",
      "Where a round's time goes (nothing new): of the median round, `node -e 0` measured in the same rounds is",
      "Node's own start-up, the git processes' time is the sum of each git process's own wall time from",
      "`GIT_TRACE2_EVENT` in one traced round, and the rest is loading the CLI bundle, opening the store,",
      "building our document and Node starting those git processes one after another (`spawnSync`).",
      "",
      "| checkouts | round ms | node -e 0 ms | git processes ms | the rest ms |",
      "|---:|---:|---:|---:|---:|",
      ...syncs.map((s) => {
        const [round, , nodeZero] = s.result.cases;
        const g = gitTotal(s.where);
        return `| ${s.n} | ${round.median.toFixed(0)} | ${nodeZero.median.toFixed(0)} | ${g.toFixed(0)} | ${(round.median - nodeZero.median - g).toFixed(0)} |`;
      }),
      "",
      "### Conflict forecast over 200 checkouts",
      "",
      `\`node dist/tandem.cjs conflicts --json --no-fetch\` in the clone that fetched 200 checkouts' presence (${conflicts.overlaps}`,
      `paths changed in more than one place), against \`git status --porcelain\` there, ${Math.min(rounds, 10)} rounds.`,
      "",
      spreadTable(conflicts.result),
      "",
      `- conflicts / git status: **${fmt(conflict.ratio)}**; conflicts / \`node -e 0\`: ${fmt(conflict.median / nodeZero.median)}`,
      `- git processes' time in one run: ${gitTotal(conflicts.where).toFixed(0)} ms (${gitLine(conflicts.where)}); above \`node -e 0\` and git, ${(conflict.median - nodeZero.median - gitTotal(conflicts.where)).toFixed(0)} ms is loading the CLI, opening the store, parsing 200 documents and finding the overlaps`,
      "",
    ].join("\n");
  } finally {
    rmSync(fx.work, { recursive: true, force: true });
  }
}
