import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { listEvents } from "../../src/store/events/list.js";
import { dumpProjections, rebuildProjections } from "../../src/store/repair/rebuild.js";
import { doubleHolds, partialAcquisitions } from "../helpers/claim-checks.js";
import { claudeWrite, codexPatch, denied } from "../helpers/hooks.js";
import { g } from "../helpers/repo.js";
import { cleanEnv, type Env, scratch, startServer, stateDir, thinHook } from "./support.js";

/**
 * Issue 16 item 4: the claim race of test/hooks/race.test.ts through the resident server, alone
 * and mixed with Node hooks writing the same store at the same time.
 */
const SESSIONS = 16;
/** Through the server only: a thin client that fell back would find no Node and fail. */
const VIA_SERVER: Env = { TANDEM_NODE: "/nonexistent/node-must-not-run" };
const VIA_NODE: Env = { TANDEM_SERVER: "0" };

const sleepers: ChildProcess[] = [];
afterAll(() => {
  for (const s of sleepers.splice(0)) s.kill();
});

/** A live process per Claude session, exported as CLAUDE_PID as Claude Code does. */
function claudeAgent(): string {
  const child = spawn("sleep", ["600"], { stdio: "ignore" });
  sleepers.push(child);
  return String(child.pid);
}

async function repoWithServer(): Promise<string> {
  const repo = join(scratch(), "repo");
  mkdirSync(repo);
  g(repo, "init", "-q", "-b", "main");
  g(repo, "commit", "-q", "--allow-empty", "-m", "initial");
  await startServer(repo);
  return repo;
}

function ledgerChecks(repo: string) {
  const db = openDb(stateDir(repo));
  try {
    const events = listEvents(db);
    const live = dumpProjections(db);
    rebuildProjections(db);
    return { events, projectionsMatch: JSON.stringify(dumpProjections(db)) === JSON.stringify(live) };
  } finally {
    db.close();
  }
}

const patchOf = (paths: string[]) =>
  `*** Begin Patch\n${paths.map((p) => `*** Add File: ${p}\n+x`).join("\n")}\n*** End Patch\n`;

describe("claim races through the resident server", () => {
  it("16 sessions writing one file at once through the server: exactly one wins, the rest are refused", async () => {
    const repo = await repoWithServer();
    const results = await Promise.all(
      Array.from({ length: SESSIONS }, (_, i) =>
        thinHook("claude-code", "pre-tool-use", claudeWrite(repo, `S${i}`, "hot.txt"), {
          cwd: repo,
          env: cleanEnv({ ...VIA_SERVER, CLAUDE_PID: claudeAgent() }),
        }),
      ),
    );
    expect(results.map((r) => r.code)).toEqual(Array(SESSIONS).fill(0));
    const winners = results.flatMap((r, i) => (denied(r) === null ? [`S${i}`] : []));
    expect(winners).toHaveLength(1);
    for (const r of results) if (denied(r) !== null) expect(denied(r)).toContain("hot.txt");

    const { events, projectionsMatch } = ledgerChecks(repo);
    expect(events.filter((e) => e.kind === "hook.error")).toEqual([]);
    expect(events.filter((e) => e.kind === "tool.requested")).toHaveLength(SESSIONS);
    expect(events.filter((e) => e.kind === "claim.acquired")).toHaveLength(1);
    expect(events.filter((e) => e.kind === "claim.denied")).toHaveLength(SESSIONS - 1);
    expect(doubleHolds(events)).toEqual([]);
    expect(projectionsMatch).toBe(true);
    const holder = events.find((e) => e.kind === "claim.acquired")!.session;
    const started = events.find((e) => e.kind === "session.started" && e.session === holder)!;
    expect((started.data as { nativeId: string }).nativeId).toBe(winners[0]);
  });

  it("server and Node hooks racing on one store: one winner per file, every call all-or-nothing", async () => {
    const repo = await repoWithServer();
    const path = (i: number) => (i % 2 ? VIA_NODE : VIA_SERVER);
    // Round one: everyone wants one file. Round two: overlapping windows of three files each.
    const hot = await Promise.all(
      Array.from({ length: SESSIONS }, (_, i) =>
        thinHook("codex", "pre-tool-use", codexPatch(repo, `M${i}`, patchOf(["hot.txt"])), {
          cwd: repo,
          env: cleanEnv(path(i)),
        }),
      ),
    );
    expect(hot.filter((r) => r.code === 0 && denied(r) === null)).toHaveLength(1);
    const windows = await Promise.all(
      Array.from({ length: SESSIONS }, (_, i) => {
        const files = [0, 1, 3].map((k) => `p${(i + k) % 12}.txt`);
        return thinHook("codex", "pre-tool-use", codexPatch(repo, `W${i}`, patchOf(files)), {
          cwd: repo,
          env: cleanEnv(path(i)),
        });
      }),
    );
    expect(windows.map((r) => r.code)).toEqual(Array(SESSIONS).fill(0));
    expect(windows.some((r) => denied(r) !== null)).toBe(true);
    expect(windows.some((r) => denied(r) === null)).toBe(true);

    const { events, projectionsMatch } = ledgerChecks(repo);
    expect(events.filter((e) => e.kind === "hook.error")).toEqual([]);
    expect(events.filter((e) => e.kind === "tool.requested")).toHaveLength(2 * SESSIONS);
    expect(doubleHolds(events)).toEqual([]);
    expect(partialAcquisitions(events)).toEqual([]);
    expect(projectionsMatch).toBe(true);
    // What the agents were told matches the ledger: the calls allowed are those that claimed.
    const native = new Map(
      events
        .filter((e) => e.kind === "session.started")
        .map((e) => [e.session, (e.data as { nativeId: string }).nativeId]),
    );
    const claimedBy = (prefix: string) =>
      new Set(
        events
          .filter((e) => e.kind === "claim.acquired" && native.get(e.session)?.startsWith(prefix))
          .map((e) => native.get(e.session)),
      );
    const toldAllowed = (rs: typeof hot, prefix: string) =>
      new Set(rs.flatMap((r, i) => (denied(r) === null ? [`${prefix}${i}`] : [])));
    expect(claimedBy("M")).toEqual(toldAllowed(hot, "M"));
    expect(claimedBy("W")).toEqual(toldAllowed(windows, "W"));
  });
});
