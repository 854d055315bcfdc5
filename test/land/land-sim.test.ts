import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type LandResult, landed } from "../../src/core/land/result.js";
import { g, writeFiles } from "../helpers/repo.js";
import { agentEdits, landAsync, landWorld, linear, read, remoteHead } from "./land-world.js";

const CHECKOUTS = 2;
const AGENTS = 4;
/**
 * The run is 25 turns (200 commits: `LAND_SIM_TURNS=25`, about 16 minutes on a busy 2-core
 * machine). `npm test` runs 5 turns (40 commits) of the same simulation to stay within the suite's
 * time; every property is checked at either size.
 */
const TURNS = Number(process.env.LAND_SIM_TURNS ?? 5);

/** Stand-in agent processes for the whole run (fakeAgent()'s live 600 s; this run may take longer). */
const standIns: ChildProcess[] = [];
afterAll(() => {
  for (const s of standIns.splice(0)) s.kill();
});
function standIn(): { CLAUDE_PID: string } {
  const child = spawn("sleep", ["7200"], { stdio: "ignore" });
  standIns.push(child);
  return { CLAUDE_PID: String(child.pid) };
}

const wipBytes = (id: string, turn: number) => `${id}'s unsaved work as of turn ${turn}\n`;

describe("tandem land: the issue's simulation", () => {
  it(`${CHECKOUTS} checkouts × ${AGENTS} agents × ${TURNS} turns: every commit lands, linearly, no agent sees a rejection or a git error, every dirty file keeps its owner's bytes`, async () => {
    const started = Date.now();
    const w = landWorld();
    const clones = Array.from({ length: CHECKOUTS }, (_, c) => w.checkout(`c${c}`));
    const agents = clones.flatMap((repo, c) =>
      Array.from({ length: AGENTS }, (_, n) => {
        const id = `c${c}a${n}`;
        return { repo, id, env: standIn(), wip: `wip-${id}.txt`, log: `log-${id}.txt` };
      }),
    );
    // Each agent's work-in-progress file is tracked (in the seed) and kept dirty by it the whole
    // run: claimed and first written through the real hooks, rewritten every turn.
    writeFiles(clones[0]!, Object.fromEntries(agents.map((a) => [a.wip, "committed\n"])));
    g(clones[0]!, "add", "--", ...agents.map((a) => a.wip));
    g(clones[0]!, "commit", "-q", "-m", "seed the agents' files");
    g(clones[0]!, "push", "-q", "origin", "main");
    for (const c of clones.slice(1)) g(c, "pull", "-q", "--ff-only");
    for (const a of agents) agentEdits(a.repo, a.id, a.env, a.wip, wipBytes(a.id, -1));

    const subjects: string[] = [];
    const results: LandResult[] = [];
    for (let turn = 0; turn < TURNS; turn++) {
      for (const a of agents) {
        writeFileSync(join(a.repo, a.wip), wipBytes(a.id, turn));
        // The turn's own files: a new one, and the agent's committed log.
        const file = `${a.id}-t${turn}.txt`;
        writeFileSync(join(a.repo, file), `${a.id} turn ${turn}\n`);
        appendFileSync(join(a.repo, a.log), `turn ${turn}\n`);
        g(a.repo, "add", "--", file, a.log);
        g(a.repo, "commit", "-q", "-m", `${a.id} turn ${turn}`, "--", file, a.log);
        subjects.push(`${a.id} turn ${turn}`);
      }
      // Every agent of both checkouts lands at once, as itself: four queue in each checkout, the
      // checkouts race on the remote.
      const runs = await Promise.all(agents.map((a) => landAsync(a.repo, a.env)));
      for (const [i, r] of runs.entries()) {
        const who = `${agents[i]!.id} turn ${turn}`;
        expect(r.stderr, who).not.toMatch(/non-fast-forward|rejected|fatal|error/i);
        expect(r.code, `${who}: ${r.stdout}\n${r.stderr}`).toBe(0);
        const result = parsed(r, who);
        expect(landed(result), `${who}: ${r.stdout}`).toBe(true);
        results.push(result);
      }
    }
    // A checkout that landed before the other's last push catches up on its next landing.
    for (const c of clones) expect(landed(parsed(await landAsync(c), c))).toBe(true);

    const onRemote = g(w.bare, "log", "--format=%s", "main").trim().split("\n");
    expect(onRemote.filter((s) => / turn \d+$/.test(s)).sort()).toEqual([...subjects].sort());
    expect(subjects).toHaveLength(CHECKOUTS * AGENTS * TURNS);
    expect(linear(w)).toBe(true);
    for (const c of clones) expect(g(c, "rev-parse", "HEAD").trim()).toBe(remoteHead(w));
    for (const a of agents) {
      expect(read(a.repo, a.wip)).toBe(wipBytes(a.id, TURNS - 1));
      expect(read(a.repo, a.log)).toBe(Array.from({ length: TURNS }, (_, t) => `turn ${t}\n`).join(""));
    }
    for (const c of clones)
      expect(g(c, "status", "--porcelain").trimEnd().split("\n").sort()).toEqual(
        agents
          .filter((a) => a.repo === c)
          .map((a) => ` M ${a.wip}`)
          .sort(),
      );
    const batched = results.filter((r) => r.batch).length;
    const pushes = results.filter((r) => r.outcome === "pushed").length;
    console.log(
      `land simulation: ${subjects.length} commits in ${Math.round((Date.now() - started) / 1000)} s; ` +
        `${results.length} landings, ${pushes} answered "pushed", ${batched} as part of a batch`,
    );
  });
});

function parsed(r: { code: number; stdout: string; stderr: string }, who: string): LandResult {
  try {
    return JSON.parse(r.stdout) as LandResult;
  } catch {
    throw new Error(
      `${who}: tandem land --json printed no JSON (exit ${r.code}): ${JSON.stringify(r.stdout)} ${r.stderr}`,
    );
  }
}
