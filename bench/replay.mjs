// `BENCH_ONLY=replay npm run bench` (issue 40 item 6): windows of k consecutive commits of a real
// history (bench/fixtures/replay.json.gz, Tandem's own hub files) replayed as k agents editing
// from one base at once, none committing within the window. Each agent's commit becomes one Edit
// per file it changed, carried onto the file as it is, and is decided twice, by the same pure
// functions the claims gate runs: under whole-file claims (the first agent to change a file holds
// it; every later one is refused) and under line claims (decision 0061: `attribute` re-derives
// the authors, `decideLineClaim` judges the edit with a margin of 3 lines). An agent is refused
// when any of its edits is. After every allowed edit each peer's hunk is compared byte for byte
// with where it lands: bytes lost must be 0.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { importSource } from "./core-import.mjs";
import { carry, loadFixture } from "./replay-fixture.mjs";
import { hookReplay } from "./replay-hooks.mjs";

const MARGIN = 3;
const SIZES = (process.env.BENCH_REPLAY_AGENTS ?? "2,3,4,8").split(",").map(Number);
// Windows of 4 agents replayed again through hook processes (about 2 s each on the shared box).
const HOOK_WINDOWS = Number(process.env.BENCH_REPLAY_HOOK_WINDOWS ?? 20);

const core = await importSource(`
export { diffLines, mapPosition } from "./src/core/lines/diff.ts";
export { attribute } from "./src/core/lines/layout.ts";
export { decideLineClaim } from "./src/core/claims/line-claim.ts";
`);

const bytesOf = (lines) => lines.reduce((n, l) => n + Buffer.byteLength(l), 0);

/** Bytes of peers' hunks that are not where the allowed edit moved them, byte for byte. */
function lostBytes(current, hunks, proposed, agent) {
  const delta = core.diffLines(current, proposed);
  let lost = 0;
  for (const h of hunks) {
    if (h.owners.includes(agent)) continue;
    const start = core.mapPosition(delta, h.bStart, "after");
    const was = current.slice(h.bStart, h.bEnd);
    const now = proposed.slice(start, start + was.length);
    if (now.join("") !== was.join("")) lost += bytesOf(was);
  }
  return lost;
}

/**
 * One window: per agent, whether each mode refused it; the line decisions' times and sizes in
 * `stats`; each file's final text (path → lines) in `finals` when given.
 */
export function replayWindow(fx, window, stats, control = false, finals = null) {
  const files = new Map(); // path → { base, current, hunks, holder }
  const verdicts = [];
  window.forEach((commit, agentIndex) => {
    const agent = `agent-${agentIndex}`;
    let tried = false;
    let byFile = false;
    let byLines = false;
    for (const f of commit.files) {
      const before = fx.text(f.before);
      const after = fx.text(f.after);
      let file = files.get(f.path);
      if (!file) {
        file = { base: before, current: before, hunks: [], holder: null };
        files.set(f.path, file);
      }
      const own = core.diffLines(before, after);
      // A change that does not apply to the window's base rests on commits outside the window.
      if (carry(own, before, after, file.base) === null) {
        stats.unplaced++;
        continue;
      }
      tried = true;
      const held = file.holder !== null && file.holder !== agent;
      if (held) byFile = true;
      // The control: each agent Writes its own copy and nothing is checked (bytes lost must show).
      const proposed = control ? after : carry(own, before, after, file.current);
      if (proposed === null) {
        // Its lines are gone under a peer's hunk: the edit would have to touch it.
        byLines = true;
        stats.unplacedOnPeers++;
        continue;
      }
      const t0 = process.hrtime.bigint();
      const hunks = core.attribute(file.base, file.current, file.hunks, file.current, null);
      const verdict = held
        ? core.decideLineClaim({
            current: file.current,
            hunks,
            proposed,
            blocks: (o) => o !== agent,
            margin: MARGIN,
          })
        : { allow: true };
      if (held) {
        stats.times.push(Number(process.hrtime.bigint() - t0) / 1e6);
        stats.lines.push(file.current.length);
      }
      if (!verdict.allow && !control) {
        byLines = true;
        continue;
      }
      stats.lost += lostBytes(file.current, hunks, proposed, agent);
      file.hunks = core.attribute(file.base, file.current, hunks, proposed, agent);
      file.current = proposed;
      if (file.holder === null) file.holder = agent;
    }
    if (tried) verdicts.push({ byFile, byLines });
  });
  if (finals) for (const [path, f] of files) finals.set(path, f.current);
  return verdicts;
}

function replay(fx, k, control = false) {
  const stats = { times: [], lines: [], lost: 0, unplaced: 0, unplacedOnPeers: 0 };
  let agents = 0;
  let byFile = 0;
  let byLines = 0;
  for (let i = 0; i + k <= fx.commits.length; i += k) {
    for (const v of replayWindow(fx, fx.commits.slice(i, i + k), stats, control)) {
      agents++;
      if (v.byFile) byFile++;
      if (v.byLines) byLines++;
    }
  }
  return { k, agents, byFile, byLines, ...stats };
}

const pct = (n, d) => (d === 0 ? "–" : `${((100 * n) / d).toFixed(1)} %`);
function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/** The decision on a 2,000-line file, as bench/line-claims.mjs measures it. */
function syntheticCost() {
  const script = fileURLToPath(new URL("./line-claims.mjs", import.meta.url));
  return execFileSync(process.execPath, [script], { encoding: "utf8" }).trim().split("\n");
}

export async function replayBench(bin) {
  const fx = loadFixture();
  const rows = SIZES.map((k) => replay(fx, k));
  const lost = rows.reduce((n, r) => n + r.lost, 0);
  const control = replay(fx, 4, true);
  const hooks = hookReplay({ bin, fx, diffLines: core.diffLines, replayWindow, k: 4, count: HOOK_WINDOWS });
  const times = rows.flatMap((r) => r.times);
  const lines = rows.flatMap((r) => r.lines);
  return [
    "## Replay of real commit windows (issue 40)",
    "",
    `\`BENCH_ONLY=replay node bench/run.mjs\` (bench/replay.mjs): ${fx.commits.length} commits of Tandem's own history`,
    `to ${fx.rev.slice(0, 12)} touching its hub files (README, docs/*.md, config keys, rule catalog, CLI program,`,
    "bench/RESULTS.md, package.json), oldest first; each window of k consecutive commits starts from one base and",
    "stands for k agents editing at once (one Edit per file each, nobody commits within the window), decided by",
    "the functions the claims gate runs (`attribute`, `decideLineClaim`), in process (a sample runs again through",
    "hook processes below); margin 3 lines.",
    "",
    "| agents (k) | agents replayed | refused, file claims | refused, line claims | refusals cut | bytes lost |",
    "|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.k} | ${r.agents} | ${r.byFile} (${pct(r.byFile, r.agents)}) | ${r.byLines} (${pct(r.byLines, r.agents)}) | ${pct(r.byFile - r.byLines, r.byFile)} | ${r.lost} |`,
    ),
    "",
    "Every agent refused by lines is refused by files too, so the cut is the share of file-claim refusals that",
    "touched no peer's uncommitted lines nor came within 3 lines of them.",
    `Bytes lost over every allowed edit: ${lost} (the same check counts ${control.lost} at k=4 when`,
    "every agent instead Writes its own copy, unchecked). Edits whose change did not apply to the window's base",
    `(they rest on commits outside it), left out of both counts: ${rows.map((r) => `${r.unplaced} at k=${r.k}`).join(", ")}.`,
    `Edits whose lines a peer had already changed (refused under line claims): ${rows.map((r) => `${r.unplacedOnPeers} at k=${r.k}`).join(", ")}.`,
    "",
    `Through the hooks (bench/replay-hooks.mjs): the first ${hooks.windows} windows of 4 as sessions of \`tandem hook`,
    `claude-code\` processes, each edit a Write of the whole file: ${hooks.refused} of ${hooks.agents} agents refused; agents whose`,
    `verdict differs from the in-process replay: ${hooks.verdictsDiffer}; files whose final bytes differ from it: ${hooks.filesDiffer}.`,
    "",
    `Line-claim decisions replayed: ${times.length} (files of ${Math.min(...lines)}–${Math.max(...lines)} lines); attribute + decide`,
    `p50 ${quantile(times, 0.5).toFixed(3)} ms, p95 ${quantile(times, 0.95).toFixed(3)} ms, max ${quantile(times, 1).toFixed(3)} ms.`,
    "On a 2,000-line file (`node bench/line-claims.mjs`):",
    "",
    ...syntheticCost().map((l) => `    ${l}`),
    "",
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const bin = fileURLToPath(new URL("../dist/tandem.cjs", import.meta.url));
  process.stdout.write(`${await replayBench(bin)}\n`);
}
