import type { ChildProcess } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callerPid } from "../../src/resident/on-demand.js";
import { openDb } from "../../src/store/db.js";
import { listEvents } from "../../src/store/events/list.js";
import { claudeWrite, denied } from "../helpers/hooks.js";
import { g } from "../helpers/repo.js";
import { Agent } from "./agents.js";
import {
  answeringServer,
  cleanEnv,
  gone,
  registered,
  scratch,
  serveCommand,
  serverOutput,
  spawnServer,
  startServer,
  stateDir,
  THIN,
  thinHook,
  waitFor,
  watchServer,
} from "./support.js";

/** Issue 16 item 4 and the server's lifecycle: start races, idle exit, status, stop, odd paths. */
function newRepo(parent = scratch()): string {
  const repo = join(parent, "repo");
  mkdirSync(repo, { recursive: true });
  g(repo, "init", "-q", "-b", "main");
  g(repo, "commit", "-q", "--allow-empty", "-m", "initial");
  watchServer(repo);
  return repo;
}

/** A parent deep enough that the state directory's socket path would not fit a socket address. */
const deep = (base: string) =>
  join(base, "a-directory-name-long-enough".repeat(3), "and-another-one-as-long".repeat(2));

const exited = (child: ChildProcess): Promise<number | null> =>
  child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((r) => child.on("exit", r));

/** A client that can only be answered by the server: its Node fallback does not exist. */
const SERVER_ONLY = { TANDEM_NODE: "/nonexistent/node" };

describe("tandem serve", () => {
  it("two servers started at once: exactly one registers and serves, the other exits 3", async () => {
    const repo = newRepo();
    const pair = [spawnServer(repo), spawnServer(repo)];
    const loser = await Promise.race(pair.map((c) => exited(c).then(() => c)));
    expect(loser.exitCode).toBe(3);
    const winner = pair.find((c) => c !== loser)!;
    const row = await waitFor("the winner to serve", () => answeringServer(repo));
    expect(row.pid).toBe(winner.pid);
    expect(winner.exitCode).toBeNull();
    await exited(loser);
    expect(serverOutput(repo)).toMatch(
      /another server \(pid \d+, build \S+\) already serves this repository/,
    );
    const r = await thinHook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "f.txt"), {
      cwd: repo,
      env: cleanEnv(SERVER_ONLY),
    });
    expect(r.code).toBe(0);
    expect(denied(r)).toBeNull();
  });

  it("exits after its idle time, removing its socket, address and registration", async () => {
    const repo = newRepo();
    const row = await startServer(repo, { TANDEM_SERVER_IDLE_SECONDS: "1" });
    await waitFor("the idle server to exit", () => gone(row.pid), 10_000);
    expect(registered(repo)).toBeNull();
    expect(statSync(row.socket, { throwIfNoEntry: false })).toBeUndefined();
    expect(statSync(join(stateDir(repo), "serve.addr"), { throwIfNoEntry: false })).toBeUndefined();
    expect(serverOutput(repo)).toContain("stopping: idle");
  });

  it("--status says who serves (exit 0) or that none does (exit 1); --stop stops it", async () => {
    const repo = newRepo();
    expect(serveCommand(repo, "--status")).toMatchObject({
      code: 1,
      stdout: expect.stringMatching(/^No server for /),
    });
    const row = await startServer(repo);
    // Only the user may connect.
    expect(statSync(row.socket).mode & 0o777).toBe(0o600);
    const status = serveCommand(repo, "--status");
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(
      `Serving ${repo}: pid ${row.pid}, build ${row.build}, socket ${row.socket}`,
    );
    const stop = serveCommand(repo, "--stop");
    expect(stop).toMatchObject({ code: 0, stdout: `Stopped the server of ${repo} (pid ${row.pid}).\n` });
    expect(gone(row.pid)).toBe(true);
    expect(serveCommand(repo, "--status").code).toBe(1);
    expect(serveCommand(repo, "--stop")).toMatchObject({
      code: 0,
      stdout: `No server was running for ${repo}; nothing to stop.\n`,
    });
  });

  it("puts the socket of a deeply nested repository in the temp directory, serves, and exits when the repository is deleted", async () => {
    const repo = newRepo(deep(scratch()));
    const row = await startServer(repo);
    expect(Buffer.byteLength(join(stateDir(repo), "serve.sock"))).toBeGreaterThan(100);
    expect(row.socket.startsWith(join(tmpdir(), `tandem-${process.getuid!()}`))).toBe(true);
    expect(statSync(row.socket).mode & 0o777).toBe(0o600);
    const r = await thinHook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "f.txt"), {
      cwd: repo,
      env: cleanEnv(SERVER_ONLY),
    });
    expect(r.code).toBe(0);
    expect(denied(r)).toBeNull();
    rmSync(repo, { recursive: true, force: true });
    await waitFor("the server of a deleted repository to exit", () => gone(row.pid), 10_000);
    expect(statSync(row.socket, { throwIfNoEntry: false })).toBeUndefined();
  });
  it("keeps a temp socket directory its own: opens none to others, and refuses another user's", async () => {
    const tmp = scratch();
    const dir = join(tmp, `tandem-${process.getuid!()}`);
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    const repo = newRepo(deep(scratch()));
    const row = await startServer(repo, { TMPDIR: tmp });
    expect(row.socket.startsWith(dir)).toBe(true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(serveCommand(repo, "--stop").code).toBe(0);
    if (process.getuid!() !== 0) return; // only root can give the directory to another user
    chownSync(dir, 65534, 65534);
    const refused = spawnServer(repo, { TMPDIR: tmp });
    expect(await exited(refused)).toBe(1);
    expect(serverOutput(repo)).toMatch(/cannot listen on .* is not a directory of this user/);
    expect(registered(repo)).toBeNull();
  });
});

describe("the agent behind a hook", () => {
  it("is the same process whether the server or the Node fallback answers", async () => {
    const repo = newRepo();
    // Named after no client, so only the process tree can tell who the agent is.
    const agent = Agent.start("agentx", scratch("tandem-agents-"));
    const start = (id: string, env: Record<string, string>) =>
      agent.run(THIN, ["hook", "cursor", "session-start"], {
        cwd: repo,
        env: cleanEnv(env),
        input: JSON.stringify({
          conversation_id: id,
          hook_event_name: "sessionStart",
          workspace_roots: [repo],
        }),
      });
    expect((await start("via-node", { TANDEM_SERVER: "0" })).code).toBe(0);
    await startServer(repo);
    expect((await start("via-server", SERVER_ONLY)).code).toBe(0);
    agent.stop();
    const db = openDb(stateDir(repo), { readonly: true });
    const agents = listEvents(db)
      .filter((e) => e.kind === "session.started")
      .map((e) => (e.data as { agentPid: number }).agentPid);
    db.close();
    expect(agents).toEqual([agent.pid, agent.pid]);
  });

  it("is looked up from the thin client that ran the Node program, and from nothing else", () => {
    expect(callerPid({ TANDEM_THIN_PID: "10" }, 20, 10)).toBe(10);
    expect(callerPid({ TANDEM_THIN_PID: "20" }, 20, 10)).toBe(20);
    expect(callerPid({ TANDEM_THIN_PID: "30" }, 20, 10)).toBe(20);
    expect(callerPid({}, 20, 10)).toBe(20);
  });
});
