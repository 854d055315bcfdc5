import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildOverview, renderOverview } from "../../src/status/overview.js";
import { agentShell } from "../helpers/agent-shell.js";
import { tandem } from "../helpers/cli.js";
import { claudeWrite } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { cli } from "../helpers/in-process-cli.js";
import { initRepo, tempDir, writeFiles } from "../helpers/repo.js";
import { canMakeReadOnly, foreignStore, makeReadOnly } from "../helpers/store-faults.js";

// A person's shell: no session flag or variable, no client variables, no agent among its ancestors.
const PLAIN = { TANDEM_SESSION: undefined, CLAUDE_CODE_SESSION_ID: undefined, CODEX_THREAD_ID: undefined };

async function withAgent(): Promise<string> {
  const repo = initRepo(join(tempDir(), "repo"));
  const agent = agentShell();
  await hook("claude-code", "pre-tool-use", claudeWrite(repo, "sess-A", "a.ts"), { cwd: repo, env: agent });
  const env = { CLAUDE_CODE_SESSION_ID: "sess-A" };
  expect(tandem(["task", "fix the parser"], { cwd: repo, env, inside: agent }).code).toBe(0);
  return repo;
}

describe("a person's tandem status", () => {
  it("prints the repository overview from a plain shell, even with one agent live, and exits 0", async () => {
    const repo = await withAgent();
    const r = await cli(["status"], { cwd: repo, env: PLAIN });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Tandem in /);
    expect(r.stdout).toMatch(
      /Live sessions \(1\):\n {2}agent-\w+ {2}claude-code {2}\d+s {2}1 claim {2}fix the parser/,
    );
    expect(r.stdout).toMatch(/No problems\./);
    expect(r.stdout).not.toMatch(/tandem status: agent-/);
  });

  it("gives the same overview as data with --json", async () => {
    const repo = await withAgent();
    const r = await cli(["status", "--json"], { cwd: repo, env: PLAIN });
    expect(r.code).toBe(0);
    const o = (JSON.parse(r.stdout) as { ok: boolean; overview: Record<string, unknown> }).overview;
    expect(o.live).toEqual([
      expect.objectContaining({ client: "claude-code", task: "fix the parser", claims: 1 }),
    ]);
    expect(o).toMatchObject({ staleHolding: [], awaitingApply: [], problems: [] });
  });

  it("lists config problems and hook errors under Problems, each with its fix", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    writeFiles(repo, { ".tandem/config.jsonc": '{ "freshnessSeconds": "soon" }' });
    await hook("claude-code", "pre-tool-use", "{not json", { cwd: repo });
    const r = await cli(["status"], { cwd: repo, env: PLAIN });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/No live agent sessions\./);
    expect(r.stdout).toMatch(
      /✗ config: .*unknown key "freshnessSeconds"\n {6}fix: write it as "freshnessSeconds" inside "agents"/,
    );
    expect(r.stdout).toMatch(
      /✗ 1 hook error\(s\) in the last 24 h\n {6}fix: see them with `tandem events --kind hook\.error`/,
    );
    expect(r.stdout).toMatch(/`tandem doctor` checks the store, wiring and config in full/);
  });

  it("keeps an agent's own box when the session is known", async () => {
    const repo = await withAgent();
    const r = await cli(["status"], { cwd: repo, env: { CLAUDE_CODE_SESSION_ID: "sess-A" } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\+-- tandem status: agent-\w+ -+\+$/m);
    expect(r.stdout).not.toMatch(/Live sessions/);
  });

  it("still refuses --end-turn without a session: it proves one session's own work", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    const r = await cli(["status", "--end-turn"], { cwd: repo, env: PLAIN });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /cannot tell which agent session this is; run it from the agent.s own shell, or, as a person, pass --session/,
    );
  });
});

describe("a person's tandem status when the store or config is broken", () => {
  /** A repository with a live agent, so its store exists. */
  async function withStore(): Promise<{ repo: string; file: string }> {
    const repo = await withAgent();
    return { repo, file: join(repo, ".git", "tandem", "state.db") };
  }

  it("lists a corrupt store with its fix, does not claim nobody is live, and exits 0", async () => {
    const { repo, file } = await withStore();
    writeFileSync(file, "not a database at all\n".repeat(10));
    const r = await cli(["status"], { cwd: repo, env: PLAIN });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("Sessions unknown: the store cannot be read.");
    expect(r.stdout).not.toContain("No live agent sessions.");
    expect(r.stdout).toMatch(
      /✗ store: .*state\.db is corrupt \(not an SQLite database\); gated edits and commits are refused/,
    );
    expect(r.stdout).toMatch(/fix: run `tandem doctor --reset`: it moves the damaged store aside/);
    const json = JSON.parse((await cli(["status", "--json"], { cwd: repo, env: PLAIN })).stdout);
    expect(json.overview).toMatchObject({ sessionsKnown: false, live: [] });
    expect(json.overview.problems[0].problem).toMatch(/^store: .*is corrupt/);
  });

  it("still refuses an agent's status on a corrupt store: its box cannot be recorded", async () => {
    const { repo, file } = await withStore();
    writeFileSync(file, "not a database at all\n".repeat(10));
    const r = await cli(["status"], { cwd: repo, env: { CLAUDE_CODE_SESSION_ID: "sess-A" } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/is corrupt .*tandem doctor/);
  });

  it("lists a store that belongs to another repository", async () => {
    const { repo, file } = await withStore();
    copyFileSync(await foreignStore(), file);
    const r = await cli(["status"], { cwd: repo, env: PLAIN });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/✗ store: .*state\.db was replaced by a different store/);
    expect(r.stdout).toMatch(/fix: put this repository's own state\.db back .*`tandem doctor --reset`/);
  });

  it.skipIf(!canMakeReadOnly())(
    "lists a read-only store next to the sessions it could still read",
    async () => {
      const { repo, file } = await withStore();
      makeReadOnly(file);
      const r = await cli(["status"], { cwd: repo, env: PLAIN });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/Live sessions \(1\):/);
      expect(r.stdout).toMatch(/✗ store: .*state\.db is read-only/);
      expect(r.stdout).toMatch(/fix: make .*state\.db writable by this user: `chmod u\+w .*state\.db`/);
    },
  );

  it("lists a config whose JSON is broken, with the fix", async () => {
    const repo = await withAgent();
    writeFiles(repo, { ".tandem/config.jsonc": '{ "agents": { broken\n' });
    const r = await cli(["status"], { cwd: repo, env: PLAIN });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /✗ config: \.tandem\/config\.jsonc:1:\d+: broken JSON\n {6}fix: correct the JSON/,
    );
  });
});

describe("the overview's rows", () => {
  const now = 1_000_000_000;
  const view = {
    id: "x",
    nativeId: "n",
    kind: "session" as const,
    parentId: null,
    activity: "",
    task: null,
    startedAt: now - 120_000,
    lastSeen: now - 3_600_000,
  };
  it("puts stale sessions holding claims and finished, unapplied sub-agents in their sections", () => {
    const o = buildOverview({
      now,
      problems: [],
      elsewhere: null,
      sessions: [
        { ...view, id: "l", name: "live-one", client: "codex", live: true, ended: false, claims: 2 },
        { ...view, id: "s", name: "stale-one", client: "claude-code", live: false, ended: false, claims: 3 },
        {
          ...view,
          id: "e",
          name: "stale-empty",
          client: "claude-code",
          live: false,
          ended: false,
          claims: 0,
        },
        { ...view, id: "x", name: "ended-one", client: "cursor", live: false, ended: true, claims: 1 },
      ],
      root: "/r",
      claims: [
        ...["a", "b"].map((path) => ({ session: "l", worktree: "/r", path })),
        ...["c", "d", "e"].map((path) => ({ session: "s", worktree: "/r", path })),
      ],
      subagents: [
        {
          name: "kid",
          parent: "live-one",
          client: "codex",
          state: "exited 0",
          capture: "captured",
          apply: "not applied",
          running: false,
          problem: false,
        },
        {
          name: "busy",
          parent: "live-one",
          client: "codex",
          state: "running",
          capture: "-",
          apply: "not applied",
          running: true,
          problem: false,
        },
        {
          name: "done",
          parent: "live-one",
          client: "codex",
          state: "exited 0",
          capture: "captured",
          apply: "applied",
          running: false,
          problem: false,
        },
      ],
    });
    expect(o.live.map((s) => [s.name, s.ageSeconds, s.claims])).toEqual([["live-one", 120, 2]]);
    expect(o.staleHolding.map((s) => [s.name, s.idleSeconds])).toEqual([["stale-one", 3600]]);
    expect(o.awaitingApply.map((r) => r.name)).toEqual(["kid"]);
    const text = renderOverview("/r", o);
    expect(text).toMatch(/stale-one {2}claude-code {2}idle 1h {2}3 claims/);
    expect(text).toMatch(/kid {2}\(parent live-one\).*not applied/);
    expect(text).toMatch(/`tandem sub apply NAME`/);
    // Another session's claims need --force: the printed release works as printed.
    expect(text).toContain("`tandem release --session NAME --force /r`");
  });
});
