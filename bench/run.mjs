// `npm run bench`: every figure as a ratio to a baseline measured in the same run —
// start-up and hooks against `node -e 0`, the end-turn check against `git status`,
// sub-agent capture and apply against plain git doing the same work.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compareBench } from "./compare.mjs";
import { endTurnBench } from "./end-turn.mjs";
import { fleetBench } from "./fleet.mjs";
import { gitEngine } from "./fleet-git.mjs";
import { fleetNatsBench } from "./fleet-nats.mjs";
import { historyBench } from "./history.mjs";
import { benchHooks } from "./hooks.mjs";
import { jailBench } from "./jail.mjs";
import { compare, table } from "./lib.mjs";
import { payloadBench } from "./payloads.mjs";
import { postChecksBench } from "./post-checks.mjs";
import { remoteBench } from "./remote.mjs";
import { replayBench } from "./replay.mjs";
import { safetyBench, takeoverBench } from "./safety.mjs";
import { serverBench } from "./server.mjs";
import { subagentBench } from "./subagents.mjs";
import { uiBench } from "./ui.mjs";
import { versionsBench } from "./versions.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
// BENCH_ONLY=startup,hooks,safety,end-turn,server,versions,payloads,post-checks,compare,subagents,history,remote,fleet,fleet-nats,ui,jail,replay
// runs some sections and only prints them: RESULTS.md is written by a full run alone.
const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(",")) : null;
const wanted = (section) => only === null || only.has(section);
const bin = fileURLToPath(new URL("../dist/tandem.cjs", import.meta.url));
const resultsFile = fileURLToPath(new URL("./RESULTS.md", import.meta.url));

const work = mkdtempSync(join(tmpdir(), "tandem-bench-"));
const repo = join(work, "repo");
execFileSync("git", ["init", "-q", "-b", "main", repo]);
const env = { ...process.env, XDG_CONFIG_HOME: join(work, "xdg") };
const node = (name, args, extra = {}) => ({ name, cmd: process.execPath, args, cwd: repo, env, ...extra });

const startup = wanted("startup")
  ? compare(
      node("node -e 0", ["-e", "0"]),
      [
        node("tandem --version", [bin, "--version"]),
        node("tandem hook, unknown event (no-op)", [bin, "hook", "claude-code", "notification"], {
          input: JSON.stringify({ session_id: "noop", cwd: repo, hook_event_name: "Notification" }),
        }),
      ],
      ROUNDS,
    )
  : null;
rmSync(work, { recursive: true, force: true });

const READING = [
  "## Reading these figures",
  "",
  "- The machine is a shared 2-core box whose speed drifts by tens of percent within minutes (`node -e 0`",
  "  alone has measured 55–90 ms here). Every table alternates its cases with the baseline in each round, so",
  "  both see the same drift, and reports medians; still, single figures move by a few hundredths between",
  "  runs, and the sub-agent rows (a few 50 MB rounds, each dominated by `git apply` writing 2,000 files)",
  "  by about a tenth.",
  "- Hook and start-up cases are whole processes: Node's own start-up is in the baseline, and the ratio is",
  "  what Tandem adds to it. The end-turn figure is the issue's own measure: time above `node -e 0` divided",
  "  by one `git status --porcelain` per repository.",
  "- Where the time goes, and what was changed to get here, is in docs/decisions/0002 (start-up),",
  "  0006 (end-turn check) and 0005 (sub-agent apply).",
  "",
];

const when = new Date().toISOString();
const report = [
  "# Benchmark results",
  "",
  `Taken ${when} with \`npm run bench\` on ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, Node ${process.version}.`,
  `Each figure is the median wall time of ${ROUNDS} runs; in every round the baseline and each case run once,`,
  "alternating, so machine noise affects both. Ratios are to the baseline measured in the same run.",
  "",
  ...(startup ? ["## Start-up", "", table(startup), ""] : []),
  wanted("hooks") ? benchHooks(bin, ROUNDS) : "",
  wanted("safety") ? safetyBench(bin, Math.min(ROUNDS, 20)) : "",
  wanted("safety") ? takeoverBench(bin, ROUNDS) : "",
  wanted("end-turn") ? endTurnBench({ rounds: Math.min(ROUNDS, 15) }) : "",
  // The resident server path (issue 16) through the wired thin client: 3–7 minutes, most of it the
  // 10,000 hooks of the memory run (BENCH_SERVER_HOOKS=2000 shortens it).
  wanted("server") ? await serverBench(bin, ROUNDS) : "",
  // Issue 25: the Write pair keeping a new version each time, server and Node (about a minute).
  wanted("versions") ? await versionsBench(bin, Math.min(ROUNDS, 20)) : "",
  // Issue 37.7: 1 to 50 MB Writes through the wiring, server and Node; a few rounds, a few minutes.
  wanted("payloads") ? await payloadBench(bin, Number(process.env.BENCH_PAYLOAD_ROUNDS ?? 3)) : "",
  // Issue 37.1 and 37.2: post-tool-use of Writes (1 KB to 4 MB) and an Edit with the intended-bytes
  // check and without, the save path and the same-stamp overwrite, server path; a minute or two.
  wanted("post-checks")
    ? await postChecksBench(bin, Number(process.env.BENCH_POST_CHECKS_ROUNDS ?? Math.min(ROUNDS, 20)))
    : "",
  // Issue 27: the hook cases on BENCH_BASE_BIN's build and on this one, in the same rounds (skipped,
  // with a line on stderr, when BENCH_BASE_BIN is unset); at least 20 rounds unless BENCH_COMPARE_ROUNDS
  // says otherwise; a few minutes.
  wanted("compare")
    ? await compareBench(bin, Number(process.env.BENCH_COMPARE_ROUNDS ?? Math.max(ROUNDS, 20)))
    : "",
  // Each round moves 50 MB through git several times: a few rounds are plenty.
  wanted("subagents") ? subagentBench({ rounds: Number(process.env.BENCH_SUBAGENT_ROUNDS ?? 5) }) : "",
  // Generating the year takes a minute or two; each round runs every command on both stores; then
  // `tandem gc` on the year, minutes on a loaded machine (BENCH_HISTORY_GC=0 skips it).
  wanted("history") ? historyBench(bin, Math.min(ROUNDS, 15)) : "",
  // Presence over the git remote (issue 17): about a minute and a half.
  wanted("remote") ? remoteBench(bin, ROUNDS) : "",
  // Issue 41: 10 and 50 clones of one remote (BENCH_FLEET=10,50,200 for more); several minutes.
  wanted("fleet") ? await fleetBench([gitEngine(bin)]) : "",
  // Issue 41: 10, 50 and 200 clones against one nats-server (the NATS engine); about two minutes.
  wanted("fleet-nats") ? await fleetNatsBench() : "",
  // The browser board (issue 18) in Debian's Chromium: seeding 100,000 events takes a few seconds.
  wanted("ui") ? await uiBench(bin, Math.min(ROUNDS, 20)) : "",
  // Issue 36: one command through the kernel jail's launcher, `npm test` and a `git status` loop
  // jailed vs plain, and a claim reaching 4 live `tandem run` jails (about a minute).
  wanted("jail") ? await jailBench(bin, ROUNDS) : "",
  // Issue 40 item 6: commit windows of Tandem's own history as agents, file vs line claims; a
  // sample again through hook processes (under a minute).
  wanted("replay") ? await replayBench(bin) : "",
  ...(only === null ? READING : []),
].join("\n");
if (only === null) writeFileSync(resultsFile, report);
process.stdout.write(`${report}\n`);
