import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { listEvents } from "../../src/store/events/list.js";
import { dumpProjections, rebuildProjections } from "../../src/store/repair/rebuild.js";
import { doubleHolds, partialAcquisitions } from "../helpers/claim-checks.js";
import { TANDEM_BIN } from "../helpers/cli.js";
import { codexPatch } from "../helpers/hooks.js";
import { initRepo, tempDir } from "../helpers/repo.js";

const SESSIONS = 16;
const ROUNDS = 4;
const PATHS = 12;

function hookAsync(repo: string, payload: object): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TANDEM_BIN, "hook", "codex", "pre-tool-use"], {
      cwd: repo,
      env: { ...process.env, XDG_CONFIG_HOME: "/nonexistent" },
      stdio: ["pipe", "ignore", "inherit"],
    });
    child.on("error", reject);
    child.on("exit", (code) => resolve(code ?? -1));
    child.stdin.end(JSON.stringify(payload));
  });
}

/** Session i asks for three overlapping files per round, a different window each time. */
function files(i: number, round: number): string[] {
  return [0, 1, 3].map((k) => `p${(i + round * 5 + k) % PATHS}.txt`);
}

function patchOf(paths: string[]): string {
  return `*** Begin Patch\n${paths.map((p) => `*** Add File: ${p}\n+x`).join("\n")}\n*** End Patch\n`;
}

async function session(repo: string, i: number): Promise<void> {
  for (let round = 0; round < ROUNDS; round++) {
    const code = await hookAsync(repo, codexPatch(repo, `S${i}`, patchOf(files(i, round))));
    if (code !== 0) throw new Error(`hook exited ${code}`);
  }
}

describe("claim races between hook processes", () => {
  it("16 sessions claiming overlapping files at once: one holder per path, all-or-nothing, ledger = projection", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    const started = Date.now();
    await Promise.all(Array.from({ length: SESSIONS }, (_, i) => session(repo, i)));
    const db = openDb(join(repo, ".git", "tandem"));
    const events = listEvents(db);
    expect(events.filter((e) => e.kind === "hook.error").map((e) => e.data)).toEqual([]);
    expect(events.filter((e) => e.kind === "tool.requested")).toHaveLength(SESSIONS * ROUNDS);
    expect(events.filter((e) => e.kind === "claim.denied").length).toBeGreaterThan(0);
    expect(events.filter((e) => e.kind === "claim.acquired").length).toBeGreaterThan(0);
    expect(doubleHolds(events)).toEqual([]);
    expect(partialAcquisitions(events)).toEqual([]);
    const live = dumpProjections(db);
    rebuildProjections(db);
    expect(dumpProjections(db)).toEqual(live);
    db.close();
    console.log(`race: ${SESSIONS * ROUNDS} concurrent hook calls in ${Date.now() - started} ms`);
  });
});
