import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { eventDetail } from "../../src/watch/events.js";
import { claudeWrite, denied, fakeAgent, ledger } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { cli } from "../helpers/in-process-cli.js";
import { g } from "../helpers/repo.js";
import { agentEditsHere, landJsonHere } from "./land-here.js";
import {
  commit,
  head,
  landWorld,
  linear,
  read,
  remoteHead,
  remoteSubjects,
  sessionName,
} from "./land-world.js";

/** The landing's events in the ledger, each as `watch` shows it. */
function landEvents(repo: string): string[] {
  return ledger(repo)
    .events.filter((e) => e.kind.startsWith("land."))
    .map((e) => `${e.kind} ${eventDetail(e, new Map(), repo)}`);
}

describe("tandem land", () => {
  it("pushes local commits as they are when the remote has not moved", async () => {
    const w = landWorld();
    const a = w.checkout("a");
    const mine = commit(a, { "a.txt": "a\n" }, "a's work");
    const { code, result } = await landJsonHere(a);
    expect(code).toBe(0);
    expect(result).toMatchObject({ outcome: "pushed", commits: 1, rebased: false, to: mine, attempts: 1 });
    expect(remoteHead(w)).toBe(mine);
    expect((await landJsonHere(a)).result.outcome).toBe("up-to-date");
  });

  it("waits for a live lander's lock and takes over a dead one's", async () => {
    const w = landWorld();
    const a = w.checkout("a");
    const mine = commit(a, { "a.txt": "a\n" }, "a's work");
    const lock = join(a, ".git", "tandem", "land.lock");
    mkdirSync(dirname(lock), { recursive: true });
    const live = fakeAgent().CLAUDE_PID;
    writeFileSync(lock, live);
    const queued = await cli(["land", "--wait", "0"], { cwd: a });
    expect(queued.code).toBe(1);
    expect(queued.stderr).toContain(`another landing of this checkout runs (pid ${live})`);
    expect(remoteHead(w)).not.toBe(mine);
    // A pid that no longer runs: a crashed lander.
    const dead = spawnSync("true").pid!;
    writeFileSync(lock, String(dead));
    expect((await landJsonHere(a)).result.outcome).toBe("pushed");
    expect(remoteHead(w)).toBe(mine);
    expect(existsSync(lock)).toBe(false);
  });

  it("rebases onto a moved remote, pushes linear history and leaves a peer's dirty file's bytes alone", async () => {
    const w = landWorld();
    const a = w.checkout("a");
    const b = w.checkout("b");
    commit(b, { "b.txt": "b\n", "shared.txt": "one\ntwo\nthree\nfour\n" }, "b's work");
    g(b, "push", "-q", "origin", "main");
    await agentEditsHere(a, "P", fakeAgent(), "notes.txt", "P's unsaved thoughts\n");
    await agentEditsHere(a, "Q", fakeAgent(), "draft.txt", "Q's new file\n");
    commit(a, { "a.txt": "a\n" }, "a's work");

    const { code, result } = await landJsonHere(a);
    expect(code).toBe(0);
    expect(result).toMatchObject({ outcome: "pushed", commits: 1, rebased: true });
    expect(remoteSubjects(w).slice(0, 2)).toEqual(["a's work", "b's work"]);
    expect(linear(w)).toBe(true);
    expect(head(a)).toBe(remoteHead(w));
    // The move brought b's files into the shared checkout and kept both peers' work as it was.
    expect(read(a, "b.txt")).toBe("b\n");
    expect(read(a, "shared.txt")).toBe("one\ntwo\nthree\nfour\n");
    expect(read(a, "notes.txt")).toBe("P's unsaved thoughts\n");
    expect(read(a, "draft.txt")).toBe("Q's new file\n");
    expect(g(a, "status", "--porcelain").split("\n").filter(Boolean).sort()).toEqual([
      " M notes.txt",
      "?? draft.txt",
    ]);
    expect(g(a, "worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);
    expect(landEvents(a)).toEqual([
      expect.stringMatching(/^land\.started main /),
      "land.pushed main: 1 commit(s) rebased and pushed",
    ]);
  });

  it("refuses, changing nothing, when the upstream changed a file a peer holds dirty, and names the holder", async () => {
    const w = landWorld();
    const a = w.checkout("a");
    const b = w.checkout("b");
    const theirs = commit(b, { "notes.txt": "b rewrote the notes\n" }, "b's notes");
    g(b, "push", "-q", "origin", "main");
    await agentEditsHere(a, "P", fakeAgent(), "notes.txt", "P's unsaved thoughts\n");
    const mine = commit(a, { "a.txt": "a\n" }, "a's work");

    const { code, result } = await landJsonHere(a);
    expect(code).toBe(1);
    expect(result).toMatchObject({
      outcome: "refused",
      blocked: [{ path: "notes.txt", holders: [sessionName(a, "P")], dirty: true }],
    });
    expect(head(a)).toBe(mine);
    expect(read(a, "notes.txt")).toBe("P's unsaved thoughts\n");
    expect(g(a, "status", "--porcelain").trim()).toBe("M notes.txt");
    expect(remoteHead(w)).toBe(theirs);
    expect(landEvents(a)).toEqual([
      expect.stringMatching(/^land\.started main /),
      `land.refused main: notes.txt (held by ${sessionName(a, "P")})`,
    ]);
  });

  it("refuses when the upstream changed a clean file a live peer has claimed and is about to edit", async () => {
    const w = landWorld();
    const a = w.checkout("a");
    const b = w.checkout("b");
    commit(b, { "notes.txt": "b rewrote the notes\n" }, "b's notes");
    g(b, "push", "-q", "origin", "main");
    expect(
      denied(
        await hook("claude-code", "pre-tool-use", claudeWrite(a, "P", "notes.txt"), {
          cwd: a,
          env: fakeAgent(),
        }),
      ),
    ).toBeNull();
    const mine = commit(a, { "a.txt": "a\n" }, "a's work");

    const { code, result } = await landJsonHere(a);
    expect(code).toBe(1);
    expect(result).toMatchObject({
      outcome: "refused",
      blocked: [{ path: "notes.txt", holders: [sessionName(a, "P")], dirty: false }],
    });
    expect(head(a)).toBe(mine);
    expect(read(a, "notes.txt")).toBe("notes\n");
  });

  it("reports a rebase conflict with the commit and paths, leaving the checkout and the remote as they were", async () => {
    const w = landWorld();
    const a = w.checkout("a");
    const b = w.checkout("b");
    const theirs = commit(b, { "shared.txt": "one\nTWO by b\nthree\n" }, "b edits line two");
    g(b, "push", "-q", "origin", "main");
    await agentEditsHere(a, "P", fakeAgent(), "draft.txt", "P's new file\n");
    const mine = commit(a, { "shared.txt": "one\ntwo by a\nthree\n" }, "a edits line two");
    const indexBefore = g(a, "ls-files", "--stage");

    const { code, result } = await landJsonHere(a);
    expect(code).toBe(1);
    expect(result).toMatchObject({
      outcome: "conflicted",
      commit: { sha: mine, subject: "a edits line two" },
      paths: ["shared.txt"],
    });
    expect(head(a)).toBe(mine);
    expect(read(a, "shared.txt")).toBe("one\ntwo by a\nthree\n");
    expect(g(a, "ls-files", "--stage")).toBe(indexBefore);
    expect(g(a, "status", "--porcelain").trim()).toBe("?? draft.txt");
    expect(g(a, "worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);
    expect(remoteHead(w)).toBe(theirs);
    expect(landEvents(a)).toEqual([
      expect.stringMatching(/^land\.started main /),
      `land.conflicted main: ${mine.slice(0, 10)} conflicts on shared.txt`,
    ]);
  });
});
