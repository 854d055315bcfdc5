// Every owner version kept, watched afterwards (issue 25, decision 0020): a Write's pre-tool-use and
// post-tool-use back to back, the file rewritten between them so every post-tool-use keeps a new
// version (a blob write), through the resident server and through Node, with no peer and with a
// live peer whose 100 kept files every hook checks by stamp. BENCH_BASE_BIN=<older dist/tandem.cjs>
// adds the same cases on that build, to read the added cost off the same rounds.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { compare, median, pairedRatio, percentile, spreadTable } from "./lib.mjs";
import {
  buildOf,
  postThin,
  repoFixture,
  servedEnv,
  startServer,
  stopServer,
  thinRequest,
} from "./server-fixtures.mjs";

const sleepers = [];
process.on("exit", () => {
  for (const s of sleepers) s.kill();
});

const write = (repo, session, file, event, id) => ({
  session_id: session,
  cwd: repo,
  hook_event_name: event,
  tool_name: "Write",
  tool_input: { file_path: join(repo, file), content: "x" },
  tool_use_id: id,
});

/** A repository served by `bin`, with a live peer that kept `peerFiles` files through that build's hooks. */
function fixture(bin, peerFiles) {
  const { work, repo, env } = repoFixture("tandem-bench-versions-");
  const agent = spawn("sleep", ["3600"], { stdio: "ignore" });
  sleepers.push(agent);
  const peerEnv = { ...env, CLAUDE_PID: String(agent.pid) };
  const names = Array.from({ length: peerFiles }, (_, i) => `peer/f${i}.txt`);
  const patch = `*** Begin Patch\n${names.map((n) => `*** Add File: ${n}\n+x`).join("\n")}\n*** End Patch\n`;
  const call = (event) => ({
    session_id: "peer",
    turn_id: "t",
    cwd: repo,
    hook_event_name: event,
    tool_name: "apply_patch",
    tool_input: { command: patch },
    tool_use_id: "p1",
  });
  const hook = (event, payload) =>
    spawnSyncHook(bin, repo, peerEnv, ["codex", event], JSON.stringify(payload));
  if (peerFiles > 0) {
    hook("pre-tool-use", call("PreToolUse"));
    mkdirSync(join(repo, "peer"), { recursive: true });
    for (const n of names) writeFileSync(join(repo, n), `peer's uncommitted bytes of ${n}\n`.repeat(40));
    hook("post-tool-use", call("PostToolUse"));
  }
  const server = startServer(bin, repo, env);
  return { work, repo, env, server };
}

function spawnSyncHook(bin, repo, env, args, input) {
  execFileSync(process.execPath, [bin, "hook", ...args], { cwd: repo, env, input });
}

/** The Write pair as one `sh -c`: pre-tool-use, the write, post-tool-use. */
function pairCase(name, launcher, fx, env, target) {
  const pre = JSON.stringify(write(fx.repo, "me", "w.txt", "PreToolUse", "toolu_w"));
  const post = JSON.stringify(write(fx.repo, "me", "w.txt", "PostToolUse", "toolu_w"));
  const script = `"$@" hook claude-code pre-tool-use <<'EOF_PRE' >/dev/null\n${pre}\nEOF_PRE\ndate +%N > w.txt\n"$@" hook claude-code post-tool-use <<'EOF_POST' >/dev/null\n${post}\nEOF_POST\n`;
  return { name, cmd: "sh", args: ["-c", script, "sh", ...launcher], cwd: fx.repo, env, target };
}

/**
 * The server's own time for the pair (its socket posted to from this process, no `sh` or thin
 * client started), each fixture in turn every round, the file rewritten between the two hooks.
 */
async function serverShare(entries, rounds) {
  const samples = entries.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (const [i, { fx, bin }] of entries.entries()) {
      const forwarded = { XDG_CONFIG_HOME: fx.env.XDG_CONFIG_HOME, PATH: fx.env.PATH, HOME: fx.env.HOME };
      const ask = async (event, name) => {
        const payload = JSON.stringify(write(fx.repo, "me", "w.txt", name, `toolu_s${r}`));
        const body = thinRequest(buildOf(bin), fx.repo, forwarded, ["hook", "claude-code", event], payload);
        const t0 = performance.now();
        const res = await postThin(fx.server.socket, body);
        // The answer's format changed with decision 0027; a build before it answered `exit 0`.
        const ok = res.text.startsWith("tandem-answer 0 ") || res.text.includes("exit 0");
        if (res.status !== 200 || !ok) throw new Error(`${res.status} ${res.text}`);
        return performance.now() - t0;
      };
      const pre = await ask("pre-tool-use", "PreToolUse");
      writeFileSync(join(fx.repo, "w.txt"), `${process.hrtime.bigint()}\n`);
      samples[i].push(pre + (await ask("post-tool-use", "PostToolUse")));
    }
  }
  return entries.map((e, i) => ({
    name: e.name,
    p50: median(samples[i]),
    p95: percentile(samples[i], 0.95),
  }));
}

export async function versionsBench(bin, rounds) {
  const builds = [["this build", bin]];
  if (process.env.BENCH_BASE_BIN) builds.push(["before (BENCH_BASE_BIN)", process.env.BENCH_BASE_BIN]);
  const fixtures = [];
  const cases = [];
  const shares = [];
  try {
    for (const [label, b] of builds) {
      for (const peers of [0, 100]) {
        const fx = fixture(b, peers);
        fixtures.push(fx);
        const thin = join(dirname(b), "tandem");
        const who = peers ? `a live peer's ${peers} kept files` : "no peer";
        shares.push({ name: `${label}, ${who}`, fx, bin: b });
        cases.push(
          pairCase(`server, ${label}, ${who}`, [thin], fx, servedEnv(fx.env), b === bin ? 0.25 : undefined),
        );
        if (peers) cases.push(pairCase(`Node, ${label}, ${who}`, [process.execPath, b], fx, fx.env));
      }
    }
    for (const c of cases) execFileSync(c.cmd, c.args, { cwd: c.cwd, env: c.env }); // warm-up
    const baseline = {
      name: "node -e 0",
      cmd: process.execPath,
      args: ["-e", "0"],
      cwd: fixtures[0].repo,
      env: fixtures[0].env,
    };
    const result = compare(baseline, cases, rounds);
    const share = await serverShare(shares, rounds * 2);
    const lines = ["## Every owner version kept (issue 25)", "", spreadTable(result), ""];
    lines.push(
      "The server's own time for the pair (pre + post posted to its socket, no process started):",
      "",
    );
    lines.push("| build, fixture | p50 ms | p95 ms |", "|---|---:|---:|");
    for (const x of share) lines.push(`| ${x.name} | ${x.p50.toFixed(1)} | ${x.p95.toFixed(1)} |`);
    lines.push("");
    if (builds.length > 1) {
      const byName = new Map(result.cases.map((c) => [c.name, c]));
      for (const c of result.cases.filter((x) => x.name.includes("this build"))) {
        const before = byName.get(c.name.replace("this build", "before (BENCH_BASE_BIN)"));
        if (before)
          lines.push(
            `- ${c.name}: +${(c.median - before.median).toFixed(1)} ms p50 over the build before (paired ratio ${pairedRatio(c, before).toFixed(2)}×)`,
          );
      }
    }
    return lines.join("\n");
  } finally {
    for (const fx of fixtures) {
      stopServer(fx.server);
      rmSync(fx.work, { recursive: true, force: true });
    }
  }
}
