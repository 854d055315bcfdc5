import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncLockFile } from "../../src/remote/sync-lock.js";
import { bundleForTest } from "../helpers/bundle.js";
import { tempDir } from "../helpers/repo.js";

/**
 * Real processes race for the sync lock whose holder is dead (decision 0027). Each round the test
 * puts a dead pid in the lock, wakes every worker at once (a byte on each stdin), and waits until
 * all have tried; the workers append what they got to one file with O_APPEND.
 */
const WORKERS = 6;
const ROUNDS = 40;
let workerJs = "";
const workers: ChildProcess[] = [];
beforeAll(async () => {
  workerJs = await bundleForTest("test/helpers/sync-lock-worker.ts");
});
afterAll(() => {
  for (const w of workers.splice(0)) w.kill();
});

function deadPid(): number {
  return spawnSync("true").pid!;
}

/** Resolves when every worker has reported `round` on its stdout; rejects if one exits. */
function roundDone(procs: ChildProcess[], round: number): Promise<void> {
  return Promise.all(
    procs.map(
      (p) =>
        new Promise<void>((resolve, reject) => {
          let seen = "";
          const onExit = (code: number | null) => reject(new Error(`worker exited with ${code}`));
          const onData = (d: Buffer) => {
            seen += d.toString();
            if (!seen.split("\n").includes(String(round))) return;
            p.stdout!.off("data", onData);
            p.off("exit", onExit);
            resolve();
          };
          p.stdout!.on("data", onData);
          p.once("exit", onExit);
        }),
    ),
  ).then(() => undefined);
}

describe("the sync lock under a race", () => {
  it("gives a dead holder's lock to exactly one of many processes that find it dead, every round", async () => {
    const state = tempDir();
    const winners = join(tempDir(), "winners.log");
    writeFileSync(winners, "");
    const procs = Array.from({ length: WORKERS }, () => {
      const p = spawn(process.execPath, [workerJs, state, winners], { stdio: ["pipe", "pipe", "inherit"] });
      workers.push(p);
      return p;
    });
    const holders: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      writeFileSync(syncLockFile(state), `${deadPid()}\n`);
      const done = roundDone(procs, round);
      for (const p of procs) p.stdin!.write("x");
      await done;
      holders.push(readFileSync(syncLockFile(state), "utf8").trim());
    }
    for (const p of procs) p.stdin!.end();
    const lines = readFileSync(winners, "utf8").trim().split("\n");
    expect(lines).toHaveLength(WORKERS * ROUNDS);
    for (let round = 0; round < ROUNDS; round++) {
      const mine = lines.filter((l) => l.startsWith(`${round} `));
      const won = mine.filter((l) => l.includes(" won ")).map((l) => l.split(" ")[2]);
      // One winner, the pid the lock holds after the round, and every other worker told so.
      expect({ round, won }).toEqual({ round, won: [holders[round]] });
      expect(mine.filter((l) => l === `${round} lost ${holders[round]}`)).toHaveLength(WORKERS - 1);
    }
  });
});
