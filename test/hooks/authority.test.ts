import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentShell } from "../helpers/agent-shell.js";
import { tandem } from "../helpers/cli.js";
import { claudeWrite, denied, hook, ledger } from "../helpers/hooks.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/** A holds f.txt; B is another live Claude session with its own agent process. */
function world() {
  const repo = initRepo(join(tempDir(), "repo"));
  const a = agentShell();
  const b = agentShell();
  expect(
    denied(hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "f.txt"), { cwd: repo, env: a })),
  ).toBeNull();
  expect(
    denied(hook("claude-code", "pre-tool-use", claudeWrite(repo, "B", "g.txt"), { cwd: repo, env: b })),
  ).toBeNull();
  // What B's Bash tool sees: its own session variable and its own agent process.
  const bShell = { ...b, CLAUDE_CODE_SESSION_ID: "B" };
  return { repo, a, b, bShell };
}

describe("only a claim's owner releases it", () => {
  it("refuses B's `tandem release --session A` and keeps A's claim", () => {
    const w = world();
    const r = tandem(["release", "f.txt", "--session", "A"], { cwd: w.repo, env: w.bShell, inside: w.b });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/runs inside agent-\S+'s agent process but names session agent-\S+/);
    expect(ledger(w.repo).claims).toContainEqual({ path: "f.txt", holder: "A" });
  });

  it("asks a person for --force, then releases and records who forced it", () => {
    const w = world();
    const asked = tandem(["release", "f.txt", "--session", "A"], { cwd: w.repo, terminal: true });
    expect(asked.code).toBe(1);
    expect(asked.stderr).toMatch(/only a claim's owner releases it.*--force/s);
    const r = tandem(["release", "f.txt", "--session", "A", "--force"], { cwd: w.repo, terminal: true });
    expect(r.code).toBe(0);
    expect(ledger(w.repo).claims).not.toContainEqual({ path: "f.txt", holder: "A" });
    const ev = ledger(w.repo).events.find((e) => e.kind === "claim.released")!;
    expect(ev.data).toMatchObject({ path: "f.txt", reason: "forced", forcedBy: "person" });
  });

  it("lets A release its own claim without --force", () => {
    const w = world();
    const r = tandem(["release", "f.txt"], {
      cwd: w.repo,
      env: { ...w.a, CLAUDE_CODE_SESSION_ID: "A" },
      inside: w.a,
    });
    expect(r.code).toBe(0);
    expect(ledger(w.repo).claims).toEqual([{ path: "g.txt", holder: "B" }]);
  });
});

describe("hook calls forged from another agent's shell", () => {
  const end = (repo: string) => ({
    session_id: "A",
    cwd: repo,
    hook_event_name: "SessionEnd",
    reason: "exit",
  });

  it("refuses a SessionEnd for A piped in from B's shell, leaving A live with its claim", () => {
    const w = world();
    const r = hook("claude-code", "session-end", end(w.repo), { cwd: w.repo, env: w.bShell });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/runs inside agent-\w+'s own tool call but speaks for session agent-\w+/);
    expect(ledger(w.repo).events.map((e) => e.kind)).not.toContain("session.ended");
    expect(ledger(w.repo).claims).toContainEqual({ path: "f.txt", holder: "A" });
    expect(ledger(w.repo).events.filter((e) => e.kind === "hook.error")).toHaveLength(1);
  });

  it("accepts A's own SessionEnd from A's client", () => {
    const w = world();
    expect(hook("claude-code", "session-end", end(w.repo), { cwd: w.repo, env: w.a }).code).toBe(0);
    expect(ledger(w.repo).events.map((e) => e.kind)).toContain("session.ended");
  });
});
