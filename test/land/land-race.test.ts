import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LandResult } from "../../src/core/land/result.js";
import { fakeAgent } from "../helpers/hooks.js";
import { g } from "../helpers/repo.js";
import {
  agentEdits,
  commit,
  landAsync,
  landWorld,
  linear,
  read,
  remoteHead,
  remoteSubjects,
} from "./land-world.js";

const LANDED = ["pushed", "up-to-date", "fast-forwarded"];

/** Every lander of a round at once, each its own process; every one must land without a git error. */
async function landAll(repos: string[]): Promise<LandResult[]> {
  const runs = await Promise.all(repos.map((r) => landAsync(r)));
  return runs.map((r) => {
    expect(r.stderr).not.toMatch(/non-fast-forward|rejected|fatal|error/i);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    const result = JSON.parse(r.stdout) as LandResult;
    expect(LANDED).toContain(result.outcome);
    return result;
  });
}

describe("tandem land under contention", () => {
  it("two clones landing at the same moment, round after round, both get every commit in, linearly", async () => {
    const w = landWorld();
    const clones = [w.checkout("a"), w.checkout("b")];
    const subjects: string[] = [];
    for (let round = 0; round < 3; round++) {
      for (const [i, c] of clones.entries()) {
        const subject = `clone ${i} round ${round}`;
        commit(c, { [`c${i}-r${round}.txt`]: `${subject}\n` }, subject);
        subjects.push(subject);
      }
      await landAll(clones);
    }
    expect(remoteSubjects(w)).toEqual(expect.arrayContaining(subjects));
    expect(linear(w)).toBe(true);
  });

  it("two checkouts × two agents × five turns: every commit lands, history is linear, every dirty file keeps its owner's bytes", async () => {
    const w = landWorld();
    const clones = [w.checkout("a"), w.checkout("b")];
    const agents = clones.flatMap((repo, c) =>
      [0, 1].map((n) => ({ repo, id: `c${c}-agent${n}`, env: fakeAgent(), wip: `wip-c${c}-${n}.txt` })),
    );
    // Each agent keeps a file of its own dirty the whole time (claimed through the real hooks),
    // rewritten every turn.
    const wipBytes = (id: string, turn: number) => `${id} unsaved work as of turn ${turn}\n`;
    for (const a of agents) agentEdits(a.repo, a.id, a.env, a.wip, wipBytes(a.id, -1));
    const subjects: string[] = [];
    for (let turn = 0; turn < 5; turn++) {
      for (const a of agents) {
        writeFileSync(join(a.repo, a.wip), wipBytes(a.id, turn));
        const file = `${a.id}-turn${turn}.txt`;
        writeFileSync(join(a.repo, file), `${a.id} turn ${turn}\n`);
        g(a.repo, "add", "--", file);
        g(a.repo, "commit", "-q", "-m", `${a.id} turn ${turn}`, "--", file);
        subjects.push(`${a.id} turn ${turn}`);
      }
      // Both agents of both checkouts land at once: two queue on each checkout, two race on the remote.
      await landAll(agents.map((a) => a.repo));
    }
    expect(remoteSubjects(w)).toEqual(expect.arrayContaining(subjects));
    expect(linear(w)).toBe(true);
    // A checkout that landed before the other's last push catches up on its next landing.
    await landAll(clones);
    for (const repo of clones) expect(g(repo, "rev-parse", "HEAD").trim()).toBe(remoteHead(w));
    for (const a of agents) expect(read(a.repo, a.wip)).toBe(wipBytes(a.id, 4));
  });
});
