/**
 * Issue 25 §5: another worktree of the repository and Tandem's own state are peers' work too. A
 * works in a linked worktree (`wt`) with an uncommitted new file; B, a live agent in the main
 * checkout, runs each command through the real pre-tool hook. Refused commands must leave A's bytes,
 * the store and the remote's refs as they were, and the message must name what and who.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { raw } from "../../src/store/handle.js";
import { claudeBash, claudeWrite, denied, fakeAgent, hook } from "../helpers/hooks.js";
import { g, repoWithRemote, tempDir } from "../helpers/repo.js";

interface World {
  repo: string;
  wt: string;
  remote: string;
  a: Record<string, string>;
  b: Record<string, string>;
}

/** A writes wt/f.txt through the real hooks; B opens a session in the main checkout. */
function world(base = tempDir()): World {
  const { repo, remote } = repoWithRemote(base);
  const wt = join(base, "wt");
  g(repo, "worktree", "add", "-q", "-b", "a-work", wt);
  const a = fakeAgent();
  const b = fakeAgent();
  const write = claudeWrite(wt, "A", "f.txt", "A's precious edit\n");
  expect(denied(hook("claude-code", "pre-tool-use", write, { cwd: wt, env: a }))).toBeNull();
  writeFileSync(join(wt, "f.txt"), "A's precious edit\n");
  hook("claude-code", "post-tool-use", { ...write, hook_event_name: "PostToolUse" }, { cwd: wt, env: a });
  hook(
    "claude-code",
    "user-prompt-submit",
    { session_id: "B", cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "tidy up" },
    { cwd: repo, env: b },
  );
  return { repo, wt, remote, a, b };
}

let kept: World | null = null;
const keptBase = realpathSync(mkdtempSync(join(tmpdir(), "tandem-protected-")));
afterAll(() => rmSync(keptBase, { recursive: true, force: true }));

/** One world for the cases that change nothing (each is refused): built once, under load it costs. */
function shared(): World {
  kept ??= world(keptBase);
  return kept;
}

/** B's command through the real pre-tool hook; run for real only when allowed. */
function asB(w: World, command: string): string | null {
  const refused = denied(
    hook("claude-code", "pre-tool-use", claudeBash(w.repo, "B", command), { cwd: w.repo, env: w.b }),
  );
  if (refused === null) execFileSync("bash", ["-c", command], { cwd: w.repo, stdio: "ignore" });
  return refused;
}

/** The name Tandem gave A's session, as its messages show it. */
function nameOf(w: World, native: string): string {
  const db = openDb(join(w.repo, ".git", "tandem"));
  try {
    return (raw(db).prepare("SELECT name FROM sessions WHERE native_id = ?").get(native) as { name: string })
      .name;
  } finally {
    db.close();
  }
}

/** Ends a stand-in agent; the wait yields so the runner can reap it (a zombie still answers kill -0). */
async function endProcess(pid: number): Promise<void> {
  process.kill(pid);
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

const aBytes = (w: World) => readFileSync(join(w.wt, "f.txt"), "utf8");

describe("another worktree where a live agent works", () => {
  it.each([
    "git worktree remove --force ../wt",
    "rm -rf ../wt",
    "git -C ../wt clean -fdx",
    "echo overwritten > ../wt/f.txt",
  ])("refuses `%s` from a peer, naming A and its file", (command) => {
    const w = shared();
    const refused = asB(w, command);
    expect(refused).toMatch(/refused this command before it ran/);
    expect(refused).toMatch(/f\.txt/);
    expect(refused).toContain(`${nameOf(w, "A")}'s`);
    expect(refused).toContain(w.wt);
    expect(aBytes(w)).toBe("A's precious edit\n");
  });

  it("allows the same removal once A's process has gone", async () => {
    const w = world();
    await endProcess(Number(w.a.CLAUDE_PID));
    // A session whose process is gone stays live for a short grace after its last hook
    // (core/sessions/liveness.ts): B is refused until then, and allowed after, well within the bound.
    let refused = asB(w, "git worktree remove --force ../wt");
    for (let tries = 0; refused !== null && tries < 60; tries++) {
      expect(refused).toMatch(/another worktree where a live agent is working/);
      await new Promise((r) => setTimeout(r, 500));
      refused = asB(w, "git worktree remove --force ../wt");
    }
    expect(refused).toBeNull();
    expect(existsSync(w.wt)).toBe(false);
  });

  it("leaves the person's own terminal alone: no hook runs there", () => {
    const w = world();
    execFileSync("git", ["worktree", "remove", "--force", "../wt"], { cwd: w.repo });
    expect(existsSync(w.wt)).toBe(false);
  });
});

describe("Tandem's store", () => {
  it.each([
    "rm -rf .git/tandem/blobs",
    "mv .git/tandem /tmp/elsewhere",
    "echo junk > .git/tandem/blobs/ab",
    "rm -rf .git",
  ])("refuses `%s` from an agent and names the store", (command) => {
    const w = shared();
    const refused = asB(w, command);
    expect(refused).toMatch(/Tandem's store/);
    expect(refused).toMatch(/tandem gc/);
    expect(existsSync(join(w.repo, ".git", "tandem", "state.db"))).toBe(true);
  });

  it("refuses the store named from the linked worktree too", () => {
    const w = shared();
    const command = "rm -rf ../repo/.git/tandem";
    const refused = denied(
      hook("claude-code", "pre-tool-use", claudeBash(w.wt, "A", command), { cwd: w.wt, env: w.a }),
    );
    expect(refused).toMatch(/inside Tandem's store/);
  });
});

describe("refs/tandem/* on the remote", () => {
  const remoteRefs = (w: World) => g(w.remote, "for-each-ref", "--format=%(refname)", "refs/tandem/");

  it.each([
    "git push -f origin :refs/tandem/leases",
    "git push origin --delete refs/tandem/leases",
    "git push origin +main:refs/tandem/leases",
    "git push --mirror origin",
    "git push --prune origin 'refs/*:refs/*'",
  ])("refuses `%s` and says what it would do", (command) => {
    const w = shared();
    g(w.repo, "push", "-q", "-f", w.remote, "main:refs/tandem/leases");
    const refused = asB(w, command);
    expect(refused).toMatch(/refs\/tandem/);
    expect(refused).toMatch(/(deletes|rewrites|mirrors|prunes)/);
    expect(remoteRefs(w)).toContain("refs/tandem/leases");
  });

  it("lets an agent push its branch", () => {
    const w = shared();
    expect(asB(w, "git push -q origin main")).toBeNull();
  });
});
