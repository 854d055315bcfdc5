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
import { UI_GONE_GRACE_MS } from "../../src/core/sessions/liveness.js";
import { openDb } from "../../src/store/db.js";
import { raw } from "../../src/store/handle.js";
import { claudeBash, claudeWrite, denied, fakeAgent } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { g, repoWithRemote, tempDir } from "../helpers/repo.js";
import { agentEditsHere } from "../land/land-here.js";

interface World {
  repo: string;
  wt: string;
  remote: string;
  a: Record<string, string>;
  b: Record<string, string>;
}

/** A writes wt/f.txt through the real hooks; B opens a session in the main checkout. */
async function world(base = tempDir()): Promise<World> {
  const { repo, remote } = repoWithRemote(base);
  const wt = join(base, "wt");
  g(repo, "worktree", "add", "-q", "-b", "a-work", wt);
  const a = fakeAgent();
  const b = fakeAgent();
  await agentEditsHere(wt, "A", a, "f.txt", "A's precious edit\n");
  await hook(
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
async function shared(): Promise<World> {
  kept ??= await world(keptBase);
  return kept;
}

/** B's command through the real pre-tool hook (at `now`, unset the present); run for real only when allowed. */
async function asB(w: World, command: string, now?: number): Promise<string | null> {
  const payload = claudeBash(w.repo, "B", command);
  const opts = { cwd: w.repo, env: w.b, ...(now === undefined ? {} : { now }) };
  const refused = denied(await hook("claude-code", "pre-tool-use", payload, opts));
  if (refused === null) execFileSync("bash", ["-c", command], { cwd: w.repo, stdio: "ignore" });
  return refused;
}

/** A column of the session Tandem keeps for `native`: its name, as messages show it, or when it was last seen. */
function sessionField<K extends "name" | "last_seen">(
  w: World,
  native: string,
  key: K,
): { name: string; last_seen: number }[K] {
  const db = openDb(join(w.repo, ".git", "tandem"));
  try {
    const row = raw(db).prepare(`SELECT ${key} FROM sessions WHERE native_id = ?`).get(native);
    return (row as { name: string; last_seen: number })[key];
  } finally {
    db.close();
  }
}

const nameOf = (w: World, native: string): string => sessionField(w, native, "name");

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
  ])("refuses `%s` from a peer, naming A and its file", async (command) => {
    const w = await shared();
    const refused = await asB(w, command);
    expect(refused).toMatch(/refused this command before it ran/);
    expect(refused).toMatch(/f\.txt/);
    expect(refused).toContain(`${nameOf(w, "A")}'s`);
    expect(refused).toContain(w.wt);
    expect(aBytes(w)).toBe("A's precious edit\n");
  });

  it("allows the same removal once A's process has gone", async () => {
    const w = await world();
    await endProcess(Number(w.a.CLAUDE_PID));
    // A session whose process is gone stays live for a short grace after its last hook
    // (core/sessions/liveness.ts): B is refused until then, and allowed after. The hook takes its
    // clock from the request, so "after" is asked for instead of waited for.
    const command = "git worktree remove --force ../wt";
    const lastSeen = sessionField(w, "A", "last_seen");
    expect(await asB(w, command, lastSeen)).toMatch(/another worktree where a live agent is working/);
    expect(existsSync(w.wt)).toBe(true);
    expect(await asB(w, command, lastSeen + UI_GONE_GRACE_MS + 1000)).toBeNull();
    expect(existsSync(w.wt)).toBe(false);
  });

  it("leaves the person's own terminal alone: no hook runs there", async () => {
    const w = await world();
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
  ])("refuses `%s` from an agent and names the store", async (command) => {
    const w = await shared();
    const refused = await asB(w, command);
    expect(refused).toMatch(/Tandem's store/);
    expect(refused).toMatch(/tandem gc/);
    expect(existsSync(join(w.repo, ".git", "tandem", "state.db"))).toBe(true);
  });

  it("refuses the store named from the linked worktree too", async () => {
    const w = await shared();
    const command = "rm -rf ../repo/.git/tandem";
    const refused = denied(
      await hook("claude-code", "pre-tool-use", claudeBash(w.wt, "A", command), { cwd: w.wt, env: w.a }),
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
  ])("refuses `%s` and says what it would do", async (command) => {
    const w = await shared();
    g(w.repo, "push", "-q", "-f", w.remote, "main:refs/tandem/leases");
    const refused = await asB(w, command);
    expect(refused).toMatch(/refs\/tandem/);
    expect(refused).toMatch(/(deletes|rewrites|mirrors|prunes)/);
    expect(remoteRefs(w)).toContain("refs/tandem/leases");
  });

  it("lets an agent push its branch", async () => {
    const w = await shared();
    expect(await asB(w, "git push -q origin main")).toBeNull();
  });
});
