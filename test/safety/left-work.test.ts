import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { resolveRoot, stateDirOf } from "../../src/config/root.js";
import { keepLeftWork } from "../../src/safety/left-keep.js";
import { openDb } from "../../src/store/db.js";
import { sessionByNative } from "../../src/store/sessions/rows.js";
import { readParts, TurnCache } from "../../src/ui/read-parts.js";
import { agentShell } from "../helpers/agent-shell.js";
import { tandem } from "../helpers/cli.js";
import { claudeBash, claudeWrite, denied, ledger } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { cli } from "../helpers/in-process-cli.js";
import { g, initRepo, tempDir } from "../helpers/repo.js";
import { restorable } from "../helpers/scenario.js";

/** Issue 26 deliverable 1: uncommitted work of a session that ended is left work, first-class. */

interface World {
  repo: string;
  agents: Record<string, { CLAUDE_PID: string }>;
}

function world(base = tempDir()): World {
  const repo = initRepo(join(base, "repo"), { "f.txt": "committed\n", "README.md": "hi\n" });
  return { repo, agents: { A: agentShell(), B: agentShell() } };
}

const as = (w: World, who: string, extra: Record<string, string> = {}) => ({
  cwd: w.repo,
  env: { ...w.agents[who], ...extra },
});

async function prompt(w: World, who: string): Promise<string> {
  const payload = { session_id: who, cwd: w.repo, hook_event_name: "UserPromptSubmit", prompt: "go on" };
  return (await hook("claude-code", "user-prompt-submit", payload, as(w, who))).stdout;
}

async function sessionStart(w: World, who: string, source = "startup"): Promise<string> {
  const payload = { session_id: who, cwd: w.repo, hook_event_name: "SessionStart", source };
  return (await hook("claude-code", "session-start", payload, as(w, who))).stdout;
}

async function end(w: World, who: string): Promise<void> {
  const payload = {
    session_id: who,
    cwd: w.repo,
    hook_event_name: "SessionEnd",
    reason: "prompt_input_exit",
  };
  expect((await hook("claude-code", "session-end", payload, as(w, who))).code).toBe(0);
}

/** A Write through the real pre- and post-tool hooks, the tool's write between them; the refusal if any. */
async function write(w: World, who: string, file: string, text: string): Promise<string | null> {
  const payload = claudeWrite(w.repo, who, file, text);
  const refused = denied(await hook("claude-code", "pre-tool-use", payload, as(w, who)));
  if (refused) return refused;
  writeFileSync(join(w.repo, file), text);
  await hook("claude-code", "post-tool-use", { ...payload, hook_event_name: "PostToolUse" }, as(w, who));
  return null;
}

/**
 * A starts, declares its task, writes f.txt, and ends without committing (Claude's /exit): built
 * once per file and put back at the same path for each test, with A's name.
 */
const leftByA = restorable("left-work", async (base) => {
  const w = world(base);
  await sessionStart(w, "A");
  await prompt(w, "A");
  const task = ["task", "fix the parser", "--session", "A"];
  expect(tandem(task, { cwd: w.repo, inside: w.agents.A }).code).toBe(0);
  expect(await write(w, "A", "f.txt", "A's unfinished parser\n")).toBeNull();
  await end(w, "A");
  return { ...w, a: sessionName(w, "A") };
});

/** The world A left its work in, and A's session name; a test may replace its agents. */
async function aLeavesWork(): Promise<{ w: World; a: string }> {
  const { a, ...w } = await leftByA();
  return { w: { ...w, agents: { ...w.agents } }, a };
}

function sessionName(w: World, native: string): string {
  const started = ledger(w.repo).events.find(
    (e) => e.kind === "session.started" && (e.data as { nativeId: string }).nativeId === native,
  );
  return (started!.data as { name: string }).name;
}

const read = (w: World, file = "f.txt") => readFileSync(join(w.repo, file), "utf8");

function boardLeft(repo: string) {
  const resolved = resolveRoot({ cwd: repo, env: {} });
  const stateDir = stateDirOf(resolved);
  const ctx = {
    root: resolved.root,
    repoTop: resolved.repo?.top ?? null,
    stateDir,
    loaded: loadConfig(resolved.root, {}),
    env: {},
  };
  const db = openDb(stateDir);
  try {
    return readParts(db, ctx, Date.now(), new TurnCache()).left;
  } finally {
    db.close();
  }
}

describe("left work: uncommitted files of a session that ended", () => {
  it("is listed with its former owner and task in a person's status, watch, the board, doctor, and a live agent's start and status box", async () => {
    const { w, a } = await aLeavesWork();
    const overview = await cli(["status"], { cwd: w.repo });
    expect(overview.stdout).toContain("Left work of ended sessions (1):");
    expect(overview.stdout).toMatch(
      new RegExp(`f\\.txt: left by ${a} \\(claude-code, task "fix the parser"\\), ended \\d+s ago`),
    );
    expect(overview.stdout).not.toContain("No problems.");
    expect(overview.stdout).toMatch(/✗ 1 uncommitted file left by ended sessions/);

    const watch = await cli(["watch", "--once"], { cwd: w.repo, env: { COLUMNS: "120" } });
    expect(watch.stdout).toMatch(/LEFT WORK/);
    expect(watch.stdout).toMatch(new RegExp(`f\\.txt\\s+${a}\\s+claude-code\\s+\\d+s ago\\s+fix the parser`));

    expect(boardLeft(w.repo)).toEqual([
      expect.objectContaining({
        path: "f.txt",
        owner: a,
        client: "claude-code",
        task: "fix the parser",
        ended: true,
      }),
    ]);

    const doctor = await cli(["doctor"], { cwd: w.repo });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(
      new RegExp(`left work.*f\\.txt: left by ${a} \\(claude-code, task "fix the parser"\\)`),
    );
    // A person reads doctor: recover or discard, never adopt, which only an agent runs.
    expect(doctor.stdout).toContain("tandem discard f.txt --yes");
    expect(doctor.stdout).not.toContain("adopt f.txt");

    const start = await sessionStart(w, "B");
    expect(start).toContain("Left work (uncommitted files of sessions that ended");
    expect(start).toContain(`f.txt: left by ${a} (claude-code, task \\"fix the parser\\")`);
    const box = await cli(["status", "--session", "B"], { cwd: w.repo });
    expect(box.stdout).toMatch(
      // The box wraps a long row under its label.
      new RegExp(`\\| left     f\\.txt: ${a} \\(claude-code, task "fix the parser"\\),[\\s|]*ended`),
    );
  });

  it("refuses a live agent's first write over it, naming whose it is; the same write again proceeds, and recover returns the first agent's bytes", async () => {
    const { w, a } = await aLeavesWork();
    await prompt(w, "B");
    const refusal = await write(w, "B", "f.txt", "B's rewrite\n");
    expect(refusal).toContain(`f.txt: left by ${a} (claude-code, task "fix the parser"), ended`);
    expect(refusal).toContain("tandem adopt f.txt");
    expect(refusal).toContain(`tandem recover f.txt --session ${a}`);
    // discard refuses inside an agent: the agent is told to ask its user instead.
    expect(refusal).not.toContain("discard f.txt");
    expect(read(w)).toBe("A's unfinished parser\n");

    expect(await write(w, "B", "f.txt", "B's rewrite\n")).toBeNull();
    expect(read(w)).toBe("B's rewrite\n");
    // B owns it now: no longer left work.
    expect((await cli(["status"], { cwd: w.repo })).stdout).not.toContain("Left work");

    const rec = await cli(["recover", "f.txt", "--session", a], { cwd: w.repo });
    expect(rec.stderr).toBe("");
    expect(read(w)).toBe("A's unfinished parser\n");
  });

  it("refuses a shell redirect over it too, once per turn: a new turn is told again", async () => {
    const { w } = await aLeavesWork();
    await prompt(w, "B");
    const cmd = "echo B > f.txt";
    const first = denied(await hook("claude-code", "pre-tool-use", claudeBash(w.repo, "B", cmd), as(w, "B")));
    expect(first).toContain("left work");
    await prompt(w, "B");
    const again = denied(await hook("claude-code", "pre-tool-use", claudeBash(w.repo, "B", cmd), as(w, "B")));
    expect(again).toContain("left work");
    expect(
      denied(await hook("claude-code", "pre-tool-use", claudeBash(w.repo, "B", cmd), as(w, "B"))),
    ).toBeNull();
  });

  it("keeps bytes the owner left outside its hooks, found when the person looks", async () => {
    const { w, a } = await aLeavesWork();
    writeFileSync(join(w.repo, "f.txt"), "written after A's last hook\n");
    expect((await cli(["status"], { cwd: w.repo })).stdout).toContain("f.txt: left by");
    writeFileSync(join(w.repo, "f.txt"), "something else\n");
    expect((await cli(["recover", "f.txt", "--session", a], { cwd: w.repo })).code).toBe(0);
    expect(read(w)).toBe("written after A's last hook\n");
  });

  it("counts a session whose agent process is gone as ended once it is no longer live", async () => {
    const w = world();
    const fresh = { TANDEM_FRESHNESS: "1" };
    await sessionStart(w, "A");
    expect(await write(w, "A", "f.txt", "A's bytes\n")).toBeNull();
    process.kill(Number(w.agents.A!.CLAUDE_PID));
    let out = "";
    for (let i = 0; i < 300 && !out.includes("Left work"); i++) {
      await new Promise((r) => setTimeout(r, 100));
      out = (await cli(["status"], { cwd: w.repo, env: fresh })).stdout;
    }
    expect(out).toMatch(/f\.txt: left by \S+ \(claude-code, no task declared\), last seen \d+s ago/);
  });

  it("adopt makes the calling session the owner: its end-turn check covers the file and nobody is refused", async () => {
    const { w } = await aLeavesWork();
    await prompt(w, "B");
    const r = tandem(["adopt", "f.txt", "--session", "B"], { cwd: w.repo, inside: w.agents.B });
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/adopted f\.txt, left by .* holds it now/);
    expect(ledger(w.repo).claims.map((c) => c.path)).toEqual(["f.txt"]);
    expect((await cli(["status"], { cwd: w.repo })).stdout).not.toContain("Left work");
    const check = tandem(["status", "--end-turn", "--session", "B"], {
      cwd: w.repo,
      env: { TANDEM_REQUIRE_GIT_FINALIZATION: "1" },
      inside: w.agents.B,
    });
    expect(check.code).toBe(1);
    expect(check.stderr).toContain("f.txt");
    expect(await write(w, "B", "f.txt", "B continues\n")).toBeNull();
  });

  it("adopt refuses a file that is not left work, and a shell that is no agent's", async () => {
    const { w } = await aLeavesWork();
    await prompt(w, "B");
    const notLeft = tandem(["adopt", "README.md", "--session", "B"], { cwd: w.repo, inside: w.agents.B });
    expect(notLeft.code).toBe(1);
    expect(notLeft.stderr).toMatch(/README\.md: not left work .* `tandem status` lists left work/);
    const person = await cli(["adopt", "f.txt"], { cwd: w.repo });
    expect(person.code).toBe(1);
    expect(person.stderr).toMatch(/run it from the agent that continues the work/);
  });

  it("discard --yes (a person) puts the file back to its committed state, keeping its bytes until gc", async () => {
    const { w, a } = await aLeavesWork();
    writeFileSync(join(w.repo, "new.txt"), "A's new file\n");
    const asked = await cli(["discard", "f.txt"], { cwd: w.repo });
    expect(asked.code).toBe(2);
    expect(asked.stderr).toMatch(/run it again with --yes/);
    expect(read(w)).toBe("A's unfinished parser\n");

    const r = await cli(["discard", "f.txt", "--yes"], { cwd: w.repo });
    expect(r.stderr).toBe("");
    expect(read(w)).toBe("committed\n");
    expect(g(w.repo, "status", "--porcelain", "--", "f.txt")).toBe("");
    expect((await cli(["status"], { cwd: w.repo })).stdout).not.toContain("Left work");
    expect((await cli(["recover", "f.txt", "--session", a], { cwd: w.repo })).code).toBe(0);
    expect(read(w)).toBe("A's unfinished parser\n");
    expect(existsSync(join(w.repo, "new.txt"))).toBe(true);
  });

  it("discard is refused from inside an agent", async () => {
    const { w } = await aLeavesWork();
    await prompt(w, "B");
    const r = await cli(["discard", "f.txt", "--yes"], {
      cwd: w.repo,
      env: { ...w.agents.B, CLAUDE_CODE_SESSION_ID: "B" },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/only a person runs it/);
    expect(read(w)).toBe("A's unfinished parser\n");
  });

  it("a resumed session gets its left work back as its own claims", async () => {
    const { w } = await aLeavesWork();
    expect(ledger(w.repo).claims).toEqual([]);
    w.agents.A = agentShell();
    await sessionStart(w, "A", "resume");
    expect(ledger(w.repo).claims.map((c) => c.path)).toEqual(["f.txt"]);
    expect((await cli(["status"], { cwd: w.repo })).stdout).not.toContain("Left work");
    await prompt(w, "B");
    expect(await write(w, "B", "f.txt", "B's rewrite\n")).toMatch(/held by|holds|claim/i);
  });

  it("releases a gone session's claim on a file that is clean again: no claim stays, and a later edit by hand is nobody's left work", async () => {
    const w = world();
    const fresh = { TANDEM_FRESHNESS: "1" };
    await sessionStart(w, "A");
    expect(await write(w, "A", "f.txt", "committed\n")).toBeNull();
    expect(ledger(w.repo).claims).toEqual([{ path: "f.txt", holder: "A" }]);
    process.kill(Number(w.agents.A!.CLAUDE_PID));
    const settled = () => ledger(w.repo).events.filter((e) => e.kind === "work.settled");
    for (let i = 0; i < 300 && settled().length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      await cli(["status"], { cwd: w.repo, env: fresh });
    }
    expect(settled().map((e) => e.data)).toEqual([
      expect.objectContaining({ paths: ["f.txt"], held: ["f.txt"], reason: "clean" }),
    ]);
    expect(ledger(w.repo).claims).toEqual([]);
    writeFileSync(join(w.repo, "f.txt"), "a person's edit\n");
    expect((await cli(["status"], { cwd: w.repo, env: fresh })).stdout).not.toContain("Left work");
  });

  it("leaves a gone owner's marks alone when it was seen again after the lookup", async () => {
    const w = world();
    await sessionStart(w, "A");
    expect(await write(w, "A", "f.txt", "committed\n")).toBeNull();
    const db = openDb(join(w.repo, ".git", "tandem"));
    try {
      const a = sessionByNative(db, "claude-code", "A")!;
      const stale = { owner: a.id, path: "f.txt", held: true, seen: a.last_seen - 1 };
      const blobsDir = join(w.repo, ".git", "tandem", "blobs");
      const req = { db, blobsDir, worktree: w.repo, left: [], actor: null, now: Date.now() };
      keepLeftWork({ ...req, clean: [stale] });
      expect(ledger(w.repo).events.filter((e) => e.kind === "work.settled")).toEqual([]);
      keepLeftWork({ ...req, clean: [{ ...stale, seen: a.last_seen }] });
    } finally {
      db.close();
    }
    expect(ledger(w.repo).events.filter((e) => e.kind === "work.settled")).toHaveLength(1);
    expect(ledger(w.repo).claims).toEqual([]);
  });

  it("is settled once committed: a later edit by hand is nobody's left work", async () => {
    const { w } = await aLeavesWork();
    g(w.repo, "commit", "-qam", "person commits A's work");
    expect((await cli(["status"], { cwd: w.repo })).stdout).not.toContain("Left work");
    writeFileSync(join(w.repo, "f.txt"), "a person's edit\n");
    expect((await cli(["status"], { cwd: w.repo })).stdout).not.toContain("Left work");
  });
});
