import { type ChildProcess, spawn } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { requestIdOf } from "../../src/resident/request-id.js";
import { openDb } from "../../src/store/db.js";
import { listEvents } from "../../src/store/events/list.js";
import { raw } from "../../src/store/handle.js";
import { claudeWrite, codexPatch, denied } from "../helpers/hooks.js";
import { g } from "../helpers/repo.js";
import {
  answeringServer,
  cleanEnv,
  type Env,
  gone,
  liveServer,
  registered,
  run,
  scratch,
  startServer,
  stateDir,
  TANDEM_BIN,
  THIN,
  thinHook,
  waitFor,
  watchServer,
} from "./support.js";

/** Issue 16 item 4: the server killed mid-request, its socket deleted, a server of another build. */
const sleepers: ChildProcess[] = [];
afterAll(() => {
  for (const s of sleepers.splice(0)) s.kill();
});

function liveProcess(): number {
  const child = spawn("sleep", ["600"], { stdio: "ignore" });
  sleepers.push(child);
  return child.pid!;
}

function newRepo(): { base: string; repo: string } {
  const base = scratch();
  const repo = join(base, "repo");
  mkdirSync(repo);
  g(repo, "init", "-q", "-b", "main");
  g(repo, "commit", "-q", "--allow-empty", "-m", "initial");
  watchServer(repo);
  return { base, repo };
}

/** A `node` that notes every run in `log`: shows whether the thin client fell back to Node. */
function nodeSpy(base: string): { env: Env; runs: () => number } {
  const log = join(base, "node-runs.log");
  const spy = join(base, "node-spy");
  writeFileSync(spy, `#!/bin/sh\necho ran >> '${log}'\nexec '${process.execPath}' "$@"\n`);
  chmodSync(spy, 0o755);
  return {
    env: { TANDEM_NODE: spy },
    runs: () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).length : 0),
  };
}

const events = (repo: string) => {
  const db = openDb(stateDir(repo), { readonly: true });
  try {
    return listEvents(db);
  } finally {
    db.close();
  }
};

const claude = (agent: number, extra: Env = {}) => cleanEnv({ CLAUDE_PID: String(agent), ...extra });

describe("a server that dies while answering", () => {
  it("killed after deciding and before replying: the agent gets the recorded decision, applied once", async () => {
    const { base, repo } = newRepo();
    const first = await startServer(repo);
    const spy = nodeSpy(base);
    const holder = await thinHook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "f.txt"), {
      cwd: repo,
      env: claude(liveProcess()),
    });
    expect(denied(holder)).toBeNull();

    const crash = { TANDEM_TEST_CRASH_AT: "serve:before-reply", ...spy.env };
    const call = { ...claudeWrite(repo, "B", "f.txt"), tool_use_id: "toolu_crashed" };
    const refused = await thinHook("claude-code", "pre-tool-use", call, {
      cwd: repo,
      env: claude(liveProcess(), crash),
    });
    await waitFor("the killed server to be gone", () => gone(first.pid));
    expect(spy.runs()).toBe(1);
    expect(refused.code).toBe(0);
    expect(denied(refused)).toMatch(/f\.txt.*held by agent-/s);
    // Replayed, not decided again: the server's one record of the call, and its recorded answer.
    const mine = events(repo).filter((e) => (e.data as { toolUseId?: string }).toolUseId === "toolu_crashed");
    expect(mine).toHaveLength(1);
    const db = openDb(stateDir(repo), { readonly: true });
    const rows = raw(db).prepare("SELECT owner, answer FROM requests").all() as {
      owner: string;
      answer: string;
    }[];
    db.close();
    // One row per request that wrote (A's and B's), both the server's; B's answer is what B got.
    expect(rows.map((r) => r.owner)).toEqual(["server", "server"]);
    expect(rows.map((r) => JSON.parse(r.answer).stdout)).toContain(refused.stdout);
    expect(events(repo).filter((e) => e.kind === "claim.denied")).toHaveLength(1);

    // The dead server left its socket and address behind: the next hook is answered by Node,
    // which starts a fresh server.
    const allowed = await thinHook("claude-code", "pre-tool-use", claudeWrite(repo, "B", "g.txt"), {
      cwd: repo,
      env: claude(liveProcess(), spy.env),
    });
    expect(denied(allowed)).toBeNull();
    expect(spy.runs()).toBe(2);
    const fresh = await waitFor("a fresh server", () => liveServer(repo));
    expect(fresh.pid).not.toBe(first.pid);
  });

  it("a gated call the server took but never answered is refused by the Node path, not applied twice", async () => {
    const { repo } = newRepo();
    const agent = liveProcess();
    await thinHook(
      "claude-code",
      "session-start",
      { session_id: "A", cwd: repo, hook_event_name: "SessionStart" },
      {
        cwd: repo,
        env: claude(agent, { TANDEM_SERVER: "0" }),
      },
    );
    const client = liveProcess(); // stands in for the thin client whose request the server took
    const db = openDb(stateDir(repo));
    raw(db)
      .prepare("INSERT INTO requests (id, owner, ts, answer) VALUES (?, 'server', ?, NULL)")
      .run(requestIdOf(client), Date.now());
    db.close();
    const before = events(repo).length;
    const fallback = (event: string, payload: object) =>
      run(process.execPath, [TANDEM_BIN, "hook", "claude-code", event], {
        cwd: repo,
        env: claude(agent, { TANDEM_THIN: "1", TANDEM_THIN_REQUEST: String(client) }),
        input: JSON.stringify(payload),
      });
    const pre = await fallback("pre-tool-use", claudeWrite(repo, "A", "f.txt"));
    expect(denied(pre)).toMatch(/server stopped while checking this tool call.*retry the same tool call/s);
    const post = await fallback("post-tool-use", {
      ...claudeWrite(repo, "A", "f.txt"),
      hook_event_name: "PostToolUse",
    });
    expect(post).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(events(repo)).toHaveLength(before);
  });
});

describe("a server that should not answer", () => {
  it("whose socket was deleted exits; the next hook goes through Node and starts a new one", async () => {
    const { base, repo } = newRepo();
    const first = await startServer(repo);
    rmSync(first.socket);
    await waitFor("the server to notice and exit", () => gone(first.pid));
    expect(existsSync(join(stateDir(repo), "serve.addr"))).toBe(false);
    expect(liveServer(repo)).toBeNull();
    const spy = nodeSpy(base);
    const r = await thinHook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "f.txt"), {
      cwd: repo,
      env: claude(liveProcess(), spy.env),
    });
    expect(denied(r)).toBeNull();
    expect(spy.runs()).toBe(1);
    const next = await waitFor("a new server", () => liveServer(repo));
    expect(next.pid).not.toBe(first.pid);
    // It registers before it binds: its address, published last, says it listens.
    await waitFor("its address", () => existsSync(join(stateDir(repo), "serve.addr")));
    expect(existsSync(next.socket)).toBe(true);
  });

  it("for another repository declines (421): Node answers in that repository, and the server keeps serving", async () => {
    const { base, repo } = newRepo();
    const other = newRepo().repo;
    const server = await startServer(repo);
    const spy = nodeSpy(base);
    // Codex says where the agent works in its payload; the hook runs from this repository.
    const r = await thinHook(
      "codex",
      "pre-tool-use",
      codexPatch(other, "X", "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\n"),
      {
        cwd: repo,
        env: cleanEnv(spy.env),
      },
    );
    expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(spy.runs()).toBe(1);
    expect(events(other).filter((e) => e.kind === "claim.acquired")).toHaveLength(1);
    expect(liveServer(repo)?.pid).toBe(server.pid);
    expect(registered(other)).toBeNull();
  });

  it("of another build is told so (409): Node answers the hook and a server of this build takes over", async () => {
    const { base, repo } = newRepo();
    const old = oldInstall(base);
    const stale = await startServer(repo, {}, join(old.dist, "tandem.cjs"));
    expect(stale.build).toBe(old.build);
    const spy = nodeSpy(base);
    const r = await thinHook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "f.txt"), {
      cwd: repo,
      env: claude(liveProcess(), spy.env),
    });
    expect(denied(r)).toBeNull();
    expect(spy.runs()).toBe(1);
    await waitFor("the stale server to stop", () => gone(stale.pid));
    const fresh = await waitFor("a server of this build", () => answeringServer(repo));
    expect(fresh.build).toBe(currentBuild());
    // And it serves: a client that cannot fall back is answered.
    const served = await thinHook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "f.txt"), {
      cwd: repo,
      env: claude(liveProcess(), { TANDEM_NODE: "/nonexistent/node" }),
    });
    expect(served.code).toBe(0);
    expect(events(repo).filter((e) => e.kind === "claim.acquired")).toHaveLength(1);
  });
});

const currentBuild = () => /^build='([^']+)'$/m.exec(readFileSync(THIN, "utf8"))![1]!;

/** A copy of this build's dist renamed to another build, as an older install would be. */
function oldInstall(base: string): { dist: string; build: string } {
  const build = "0.0.1+old.000000";
  const dist = join(base, "old", "dist");
  mkdirSync(dist, { recursive: true });
  const src = join(THIN, "..");
  for (const f of readdirSync(src)) {
    if (f !== "tandem" && !f.endsWith(".cjs")) continue;
    copyFileSync(join(src, f), join(dist, f));
    writeFileSync(join(dist, f), readFileSync(join(dist, f), "utf8").split(currentBuild()).join(build));
  }
  // The bundles find better-sqlite3's addon and mvdan-sh in the package's node_modules.
  symlinkSync(join(src, "..", "node_modules"), join(base, "old", "node_modules"));
  return { dist, build };
}
