import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { boardModel } from "../../src/watch/model.js";
import { agentShell } from "../helpers/agent-shell.js";
import { tandem } from "../helpers/cli.js";
import { claudeWrite, codexPatch, fakeAgent, hook } from "../helpers/hooks.js";
import { g, initRepo, tempDir } from "../helpers/repo.js";

function repoWithIdentity(): string {
  const repo = initRepo(join(tempDir("tandem-watch-"), "repo"));
  g(repo, "config", "user.name", "Watch Test");
  g(repo, "config", "user.email", "watch@tandem.invalid");
  return repo;
}

function board(repo: string, events = 15) {
  const db = openDb(join(repo, ".git", "tandem"));
  try {
    return boardModel(db, Date.now(), { root: repo, freshnessSeconds: 600, events });
  } finally {
    db.close();
  }
}

describe("boardModel", () => {
  it("is empty without a store", () => {
    const m = boardModel(null, 5, { root: "/r", freshnessSeconds: 600, events: 10 });
    expect(m).toEqual({
      root: "/r",
      now: 5,
      seq: 0,
      sessions: [],
      claims: [],
      left: [],
      subagents: [],
      events: [],
    });
  });

  it("reads sessions, claims and recent events, naming holders and stripping the root", () => {
    const repo = repoWithIdentity();
    const A = agentShell();
    hook("claude-code", "pre-tool-use", claudeWrite(repo, "sess-A", "src/a.ts"), { cwd: repo, env: A });
    tandem(["task", "port the parser"], { cwd: repo, env: { CLAUDE_CODE_SESSION_ID: "sess-A" }, inside: A });
    const patch = "*** Begin Patch\n*** Add File: src/a.ts\n+c\n*** End Patch\n";
    hook("codex", "pre-tool-use", codexPatch(repo, "sess-C", patch), { cwd: repo, env: fakeAgent() });

    const m = board(repo);
    const [a, c] = [
      m.sessions.find((s) => s.client === "claude-code")!,
      m.sessions.find((s) => s.client === "codex")!,
    ];
    expect(a).toMatchObject({ kind: "session", state: "live", task: "port the parser", claims: 1 });
    expect(c).toMatchObject({ state: "live", claims: 0, task: null });
    expect(m.claims).toEqual([{ path: "src/a.ts", holder: a.name, state: "live", lastSeen: a.lastSeen }]);
    const denied = m.events.find((e) => e.kind === "claim.denied")!;
    expect(denied).toMatchObject({ who: c.name, tone: "bad", detail: `src/a.ts (held by ${a.name})` });
    expect(m.events.at(-1)!.seq).toBe(m.seq);
  });

  it("keeps only the most recent events", () => {
    const repo = repoWithIdentity();
    for (let i = 0; i < 4; i++)
      hook("claude-code", "pre-tool-use", claudeWrite(repo, "s", `f${i}.ts`), { cwd: repo });
    const m = board(repo, 3);
    expect(m.events.map((e) => e.seq)).toEqual([m.seq - 2, m.seq - 1, m.seq]);
  });

  it("shows a sub-agent with its capture and apply state, and its parent by name", () => {
    const repo = repoWithIdentity();
    const agent = agentShell();
    hook("claude-code", "pre-tool-use", claudeWrite(repo, "parent", "p.ts"), { cwd: repo, env: agent });
    const env = { TANDEM_SESSION: "parent" };
    const script = "echo one > one.txt && git add one.txt && git commit -qm one && echo dirty > two.txt";
    const sub = ["sub", "run", "--name", "helper", "--", "sh", "-c", script];
    const run = tandem(sub, { cwd: repo, env, inside: agent });
    expect(run.code, run.stderr).toBe(0);

    const before = board(repo);
    const parent = before.sessions.find((s) => s.kind === "session")!.name;
    expect(before.subagents).toEqual([
      expect.objectContaining({
        name: "helper",
        parent,
        client: "exec",
        state: "exit 0",
        apply: "not applied",
        running: false,
        problem: false,
      }),
    ]);
    expect(before.subagents[0]!.capture).toMatch(/^1 commit \+ \d+ B uncommitted$/);

    expect(tandem(["sub", "apply", "helper"], { cwd: repo, env, inside: agent }).code).toBe(0);
    expect(board(repo).subagents[0]!.apply).toBe("applied");
  });
});
