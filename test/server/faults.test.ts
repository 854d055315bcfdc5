import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readFailureLog } from "../../src/store/failure-log.js";
import { claudeWrite, denied } from "../helpers/hooks.js";
import { initRepo } from "../helpers/repo.js";
import { doctor, holdWriteLock } from "../helpers/store-faults.js";
import {
  cleanEnv,
  type Env,
  gone,
  liveServer,
  scratch,
  serverOutput,
  spawnServer,
  startServer,
  stateDir,
  thinHook,
  waitFor,
  watchServer,
} from "./support.js";

/** Issue 25 item 7: the resident server under a held write lock, a store damaged under it, a crash. */
const sleepers: ReturnType<typeof spawn>[] = [];
// The agents' stand-ins end with each test: the leftover-process check counts them otherwise.
afterEach(() => {
  for (const s of sleepers.splice(0)) s.kill("SIGKILL");
});
const agent = (extra: Env = {}): Env => {
  const child = spawn("sleep", ["600"], { stdio: "ignore" });
  sleepers.push(child);
  return cleanEnv({ CLAUDE_PID: String(child.pid), ...extra });
};
/** A caller that cannot fall back to Node: its answer can only come from the server. */
const SERVER_ONLY = { TANDEM_NODE: "/nonexistent/node" };

/** A repository served by a resident server, where A holds f.txt and has edited it, uncommitted. */
async function served(files: Record<string, string> = {}) {
  const repo = initRepo(join(scratch(), "repo"), { "f.txt": "committed\n", ...files });
  watchServer(repo);
  const server = await startServer(repo);
  const claimed = await thinHook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "f.txt"), {
    cwd: repo,
    env: agent(),
  });
  expect(denied(claimed)).toBeNull();
  writeFileSync(join(repo, "f.txt"), "A's work\n");
  const lock = () => holdWriteLock(join(stateDir(repo), "state.db"));
  const peerWrite = (session: string, extra: Env = {}) =>
    thinHook("claude-code", "pre-tool-use", claudeWrite(repo, session, "f.txt"), {
      cwd: repo,
      env: agent(extra),
    });
  return { repo, server, lock, peerWrite };
}

/** Stops a server whose store the test damaged, and removes the store the suite's cleanup would read. */
async function retire(repo: string, pid: number): Promise<void> {
  process.kill(pid, "SIGTERM");
  await waitFor("the server to stop", () => gone(pid));
  rmSync(stateDir(repo), { recursive: true, force: true });
}

describe("the resident server under a held write lock", () => {
  it("keeps serving when its request pruning finds the lock held, and records the skipped pruning", async () => {
    const w = await served();
    const release = await w.lock();
    // The server prints the skip, then records it: wait for the record too.
    const recorded = () => readFailureLog(stateDir(w.repo)).some((e) => e.source === "tandem serve");
    await waitFor("the server's pruning to meet the lock", () =>
      gone(w.server.pid) || (serverOutput(w.repo).includes("pruning old requests") && recorded())
        ? true
        : null,
    );
    expect(gone(w.server.pid)).toBe(false);
    const logged = readFailureLog(stateDir(w.repo)).filter((e) => e.source === "tandem serve");
    expect(logged.map((e) => [e.problem, e.failed])).toEqual([["locked", "open"]]);
    await release();
    // The same server answers the next call, and A's claim still stands.
    const after = await w.peerWrite("B", SERVER_ONLY);
    expect(denied(after)).toMatch(/f\.txt.*held by agent-/s);
    expect(liveServer(w.repo)?.pid).toBe(w.server.pid);
  });

  it("refuses a gated write as 'store busy' once the configured bound has passed", async () => {
    const w = await served({ ".tandem/config.jsonc": '{ "agents": { "storeLockSeconds": 1 } }' });
    await w.lock();
    const r = await w.peerWrite("B", SERVER_ONLY);
    const reason = denied(r);
    expect(reason).toMatch(/its store is busy/);
    // The wait the server's connection was given is the configured bound, not a default.
    expect(reason).toMatch(/held past the 1 s agents\.storeLockSeconds allows \(this call waited 1 s\)/);
    expect(reason).toMatch(/fuser .*Retry the same tool call in a moment/);
    expect(readFileSync(join(w.repo, "f.txt"), "utf8")).toBe("A's work\n");
    expect(liveServer(w.repo)?.pid).toBe(w.server.pid);
  });

  it("does not make calls queued behind a refused one wait the bound again", async () => {
    const w = await served({ ".tandem/config.jsonc": '{ "agents": { "storeLockSeconds": 3 } }' });
    await w.lock();
    const answers = await Promise.all([w.peerWrite("B", SERVER_ONLY), w.peerWrite("C", SERVER_ONLY)]);
    const reasons = answers.map((a) => denied(a) ?? "allowed");
    for (const reason of reasons) expect(reason).toMatch(/its store is busy/);
    // The server answers one request at a time while SQLite waits: the second waits a tenth.
    const waits = reasons.map((r) => Number(/this call waited ([\d.]+) s/.exec(r)?.[1])).sort();
    expect(waits).toEqual([0.3, 3]);
  });
});

describe("the resident server on a store damaged under it", () => {
  it("refuses the very first peer write after the store's write-ahead log vanished, and every one after", async () => {
    const w = await served();
    rmSync(join(stateDir(w.repo), "state.db-wal"));
    const first = denied(await w.peerWrite("B", SERVER_ONLY));
    expect(first).toMatch(/store is unusable.*is corrupt \(its write-ahead log vanished/s);
    expect(first).toMatch(/ doctor --reset/);
    // Marked: the server's pooled connections are not trusted either.
    expect(denied(await w.peerWrite("C", SERVER_ONLY))).toMatch(/is corrupt \(found corrupt at /);
    expect(readFileSync(join(w.repo, "f.txt"), "utf8")).toBe("A's work\n");
    expect(doctor(w.repo).stdout).toMatch(/✗ store: .*is corrupt/);
    await retire(w.repo, w.server.pid);
  });
});

describe("a crash of the resident server", () => {
  it("is recorded by the server itself on a fault nothing caught, and reported by doctor", async () => {
    const repo = initRepo(join(scratch(), "repo"), { "f.txt": "committed\n" });
    const child = spawnServer(repo, { TANDEM_TEST_CRASH_AT: "serve:uncaught" });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(70);
    // It cleaned up: the next hook goes straight to Node instead of a dead socket.
    expect(existsSync(join(stateDir(repo), "serve.addr"))).toBe(false);
    const report = doctor(repo);
    expect(report.stdout).toMatch(
      /✗ resident server: 1 crash\(es\) since .*found by itself\): uncaught exception: injected fault/,
    );
  });

  it("killed without a word is recorded by the next hook that finds it dead, and reported by doctor", async () => {
    const w = await served();
    process.kill(w.server.pid, "SIGKILL");
    await waitFor("the killed server to be gone", () => gone(w.server.pid));
    expect(doctor(w.repo).stdout).toMatch(/✓ resident server: no crash since/);
    // Answered through Node (the server is dead), which records what it found.
    expect(denied(await w.peerWrite("B"))).toMatch(/f\.txt.*held by agent-/s);
    const report = doctor(w.repo);
    expect(report.stdout).toMatch(
      new RegExp(
        `✗ resident server: 1 crash\\(es\\) since .*\\(pid ${w.server.pid}, found by a hook\\): .*died without cleaning up`,
      ),
    );
  });
});
