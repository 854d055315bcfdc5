import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BOX_WIDTH } from "../../src/core/ritual/status-box.js";
import { claudeWrite, codexPatch, fakeAgent, ledger } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { cli } from "../helpers/in-process-cli.js";
import { initRepo, tempDir } from "../helpers/repo.js";

async function project() {
  const repo = initRepo(join(tempDir(), "repo"));
  const A = fakeAgent();
  await hook("claude-code", "pre-tool-use", claudeWrite(repo, "sess-A", "src/a.ts"), { cwd: repo, env: A });
  await hook("claude-code", "pre-tool-use", claudeWrite(repo, "sess-A", "src/b.ts"), { cwd: repo, env: A });
  await hook(
    "codex",
    "pre-tool-use",
    codexPatch(repo, "sess-C", "*** Begin Patch\n*** Add File: c.txt\n+c\n*** End Patch\n"),
    { cwd: repo },
  );
  return repo;
}

describe("finding the caller's session", () => {
  it("uses the client's session variable from the agent's shell", async () => {
    const repo = await project();
    const r = await cli(["task", "port the parser"], {
      cwd: repo,
      env: { CLAUDE_CODE_SESSION_ID: "sess-A" },
    });
    expect(r.code).toBe(0);
    // What the agent prints ends up in the reply a person reads: no title suggestion there.
    expect(r.stdout).toMatch(/^agent-\w+: task set — port the parser\n$/);
    const json = await cli(["task", "", "--json"], { cwd: repo, env: { CLAUDE_CODE_SESSION_ID: "sess-A" } });
    expect(JSON.parse(json.stdout).title).toMatch(/^agent-\w+: port the parser$/);
  });

  it("prefers --session, then TANDEM_SESSION, over the client's variables", async () => {
    const repo = await project();
    await cli(["task", "one", "--session", "sess-C"], {
      cwd: repo,
      env: { CLAUDE_CODE_SESSION_ID: "sess-A" },
    });
    await cli(["task", "two"], {
      cwd: repo,
      env: { TANDEM_SESSION: "sess-C", CLAUDE_CODE_SESSION_ID: "sess-A" },
    });
    const tasks = ledger(repo).events.filter((e) => e.kind === "task.set");
    expect(new Set(tasks.map((t) => t.session)).size).toBe(1);
    expect(tasks.map((t) => (t.data as { text: string }).text)).toEqual(["one", "two"]);
  });

  it("asks for --session (exit 2) when several sessions are live and nothing identifies the caller", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    // Each session's agent is a separate process, none of them an ancestor of this command.
    await hook("claude-code", "pre-tool-use", claudeWrite(repo, "one", "a.ts"), {
      cwd: repo,
      env: fakeAgent(),
    });
    await hook("claude-code", "pre-tool-use", claudeWrite(repo, "two", "b.ts"), {
      cwd: repo,
      env: fakeAgent(),
    });
    // `tandem task` acts for one session (`tandem status` shows a person the overview instead).
    const r = await cli(["task", "which one?"], {
      cwd: repo,
      env: { CLAUDE_CODE_SESSION_ID: undefined, CODEX_THREAD_ID: undefined },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /cannot tell which agent session this is; run it from the agent.s own shell, or, as a person, pass --session/,
    );
  });

  it("falls back to the single live session", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    await hook("claude-code", "pre-tool-use", claudeWrite(repo, "only", "x.ts"), { cwd: repo });
    expect((await cli(["task", "solo"], { cwd: repo })).code).toBe(0);
  });

  it("keeps the task when an empty one acknowledges a turn", async () => {
    const repo = await project();
    const env = { CLAUDE_CODE_SESSION_ID: "sess-A" };
    await cli(["task", "keep me"], { cwd: repo, env });
    expect((await cli(["task", ""], { cwd: repo, env })).stdout).toMatch(/task unchanged — keep me/);
    const sessions = JSON.parse((await cli(["sessions", "--json"], { cwd: repo })).stdout) as {
      nativeId: string;
      task: string;
    }[];
    expect(sessions.find((s) => s.nativeId === "sess-A")!.task).toBe("keep me");
  });
});

describe("tandem status", () => {
  it("prints a fixed-width box with the session, task, claims and peers, and records the check", async () => {
    const repo = await project();
    const env = { CLAUDE_CODE_SESSION_ID: "sess-A" };
    await cli(["task", "a very long task description ".repeat(6)], { cwd: repo, env });
    const r = await cli(["status"], { cwd: repo, env });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    for (const line of lines) expect(line.length).toBe(BOX_WIDTH);
    expect(lines[0]).toMatch(/^\+-- tandem status: agent-\w+ -+\+$/);
    expect(r.stdout).toMatch(/claims +2: src\/a\.ts, src\/b\.ts/);
    expect(r.stdout).toMatch(/agent-\w+ \(codex\) 1 claim,/);
    const checked = ledger(repo).events.filter((e) => e.kind === "status.checked");
    expect(checked.map((e) => e.data)).toEqual([{ end_turn: false }]);
  });

  it("lists the session's claimed files that are uncommitted, new untracked ones included, in plain words", async () => {
    const repo = await project();
    mkdirSync(join(repo, "src"), { recursive: true });
    writeFileSync(join(repo, "src/a.ts"), "new, untracked\n");
    const r = await cli(["status"], { cwd: repo, env: { CLAUDE_CODE_SESSION_ID: "sess-A" } });
    expect(r.stdout).toMatch(/^\| changes +1 not committed yet: src\/a\.ts +\|$/m);
    expect(r.stdout).not.toMatch(/nothing awaiting|not an end-turn check/);
    const json = JSON.parse((await cli(["status", "--json", "--session", "sess-A"], { cwd: repo })).stdout);
    expect(json.awaiting).toEqual(["src/a.ts"]);
  });

  it("--json gives the session, claims and peers as data", async () => {
    const repo = await project();
    const r = await cli(["status", "--json", "--session", "sess-C"], { cwd: repo });
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ ok: true, session: { client: "codex" }, claims: ["c.txt"] });
    expect(out.peers.map((p: { client: string }) => p.client)).toEqual(["claude-code"]);
  });
});

describe("tandem claims and tandem release", () => {
  it("lists live claims and releases the caller's own, a directory releasing everything under it", async () => {
    const repo = await project();
    const list = JSON.parse((await cli(["claims", "--json"], { cwd: repo })).stdout) as { path: string }[];
    expect(list.map((c) => c.path)).toEqual(["c.txt", "src/a.ts", "src/b.ts"]);
    const r = await cli(["release", "src"], { cwd: repo, env: { CLAUDE_CODE_SESSION_ID: "sess-A" } });
    expect(r).toMatchObject({ code: 0, stdout: "released src/a.ts\nreleased src/b.ts\n" });
    expect(ledger(repo).claims).toEqual([{ path: "c.txt", holder: "sess-C" }]);
    const reasons = ledger(repo)
      .events.filter((e) => e.kind === "claim.released")
      .map((e) => (e.data as { reason: string }).reason);
    expect(reasons).toEqual(["explicit", "explicit"]);
  });

  it("refuses to release a claim the caller does not hold", async () => {
    const repo = await project();
    const r = await cli(["release", "c.txt"], { cwd: repo, env: { CLAUDE_CODE_SESSION_ID: "sess-A" } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/holds no claim on c\.txt; see `tandem claims`/);
    expect(ledger(repo).claims).toHaveLength(3);
  });
});
