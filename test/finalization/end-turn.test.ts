import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tandem } from "../helpers/cli.js";
import { installGitHooks } from "../helpers/git-hooks.js";
import { codexPatch, denied, hook, ledger } from "../helpers/hooks.js";
import { g, initRepo, tempDir, writeFiles } from "../helpers/repo.js";
import {
  clonedRepo,
  commit,
  endTurnHere,
  endTurnTextHere,
  problems,
  shellHere,
  statusEvents,
  writeHere,
} from "./fixture.js";

describe("tandem status --end-turn in one repository", () => {
  it("passes when the session's work is committed and pushed, and records end_turn:true", async () => {
    const { repo } = clonedRepo(tempDir(), "repo");
    await writeHere(repo, "A", "a.txt");
    commit(repo, "a", "a.txt");
    g(repo, "push", "-q");
    const r = await endTurnHere(repo, "A");
    expect(r.code).toBe(0);
    expect(r.json.ok).toBe(true);
    expect(problems(r.json.findings)).toEqual({});
    // The status object keeps its keys at the top level and again under "status".
    expect(r.json).toMatchObject({ session: { client: "claude-code" }, claims: ["a.txt"], peers: [] });
    expect(r.json.status).toMatchObject({ ok: true, claims: ["a.txt"], findings: r.json.findings });
    expect(statusEvents(repo)).toEqual([{ end_turn: true }]);
    const box = await endTurnTextHere(repo, "A");
    expect(box).toMatchObject({ code: 0, stderr: "" });
    expect(box.stdout).toContain("end-turn check passed");
  });

  it("re-reads a stored key that looks like a Windows drive path as the file it names", async () => {
    const { repo } = clonedRepo(tempDir(), "repo");
    await writeHere(repo, "A", "C:notes.txt");
    expect(problems((await endTurnHere(repo, "A")).json.findings)).toEqual({
      dirty: [{ repo, path: "C:notes.txt", state: "??" }],
    });
    commit(repo, "notes", "C:notes.txt");
    g(repo, "push", "-q");
    expect(await endTurnHere(repo, "A")).toMatchObject({ code: 0, json: { ok: true } });
  });

  it("fails on a dirty owned file and ignores dirty files another session owns or nobody owns", async () => {
    const { repo } = clonedRepo(tempDir(), "repo");
    await writeHere(repo, "A", "mine.txt");
    hook(
      "codex",
      "pre-tool-use",
      codexPatch(repo, "B", "*** Begin Patch\n*** Add File: theirs.txt\n+b\n*** End Patch\n"),
      {
        cwd: repo,
      },
    );
    writeFiles(repo, { "theirs.txt": "b\n", "nobody.txt": "n\n", "README.md": "edited by a human\n" });
    const a = await endTurnHere(repo, "A");
    expect(a.code).toBe(1);
    expect(a.json).toMatchObject({ ok: false, status: null });
    expect(problems(a.json.findings)).toEqual({ dirty: [{ repo, path: "mine.txt", state: "??" }] });
    const b = await endTurnHere(repo, "B");
    expect(problems(b.json.findings)).toEqual({ dirty: [{ repo, path: "theirs.txt", state: "??" }] });

    const text = await endTurnTextHere(repo, "A");
    expect(text.code).toBe(1);
    expect(text.stdout).toBe("");
    expect(text.stderr).toContain("Uncommitted changes in files this session owns (1):");
    expect(text.stderr).toContain(`${repo}: mine.txt (untracked)`);
    expect(text.stderr).not.toContain("nobody.txt");
    expect(statusEvents(repo)).toEqual([]);

    commit(repo, "mine", "mine.txt");
    g(repo, "push", "-q");
    expect((await endTurnHere(repo, "A")).code).toBe(0);
  });

  it("fails on a clean local commit that is not pushed, then passes once it is", async () => {
    const { repo } = clonedRepo(tempDir(), "repo");
    await writeHere(repo, "A", "a.txt");
    commit(repo, "a", "a.txt");
    const r = await endTurnHere(repo, "A");
    expect(problems(r.json.findings)).toEqual({
      unpushed: [{ repo, branch: "main", upstream: "origin/main", ahead: 1 }],
    });
    expect((await endTurnTextHere(repo, "A")).stderr).toContain(`-> git -C ${repo} push`);
    g(repo, "push", "-q");
    expect((await endTurnHere(repo, "A")).code).toBe(0);
  });

  it("suggests tandem land, not a push, when the remote moved under a local commit; landing then passes", async () => {
    const base = tempDir();
    const { repo, remote } = clonedRepo(base, "repo");
    g(repo, "config", "user.name", "Lander");
    g(repo, "config", "user.email", "lander@tandem.invalid");
    const other = join(base, "other");
    g(base, "clone", "-q", remote, other);
    writeFiles(other, { "theirs.txt": "theirs\n" });
    g(other, "add", "--", "theirs.txt");
    g(other, "commit", "-q", "-m", "theirs");
    g(other, "push", "-q");
    await writeHere(repo, "A", "a.txt");
    commit(repo, "a", "a.txt");
    g(repo, "fetch", "-q");
    expect(problems((await endTurnHere(repo, "A")).json.findings)).toEqual({
      unpushed: [{ repo, branch: "main", upstream: "origin/main", ahead: 1, behind: 1 }],
    });
    expect((await endTurnTextHere(repo, "A")).stderr).toContain(`-> tandem --root ${repo} land`);
    expect(tandem(["--root", repo, "land"], { cwd: repo }).code).toBe(0);
    expect((await endTurnHere(repo, "A")).code).toBe(0);
  });

  it("fails on a branch without upstream until a remote-tracking ref contains HEAD", async () => {
    const { repo } = clonedRepo(tempDir(), "repo");
    g(repo, "checkout", "-q", "-b", "feature");
    await writeHere(repo, "A", "a.txt");
    commit(repo, "a", "a.txt");
    const r = await endTurnHere(repo, "A");
    expect(r.code).toBe(1);
    expect(r.json.findings.unpushed).toEqual([
      {
        repo,
        branch: "feature",
        reason: expect.stringMatching(/no upstream and no remote-tracking ref contains/),
      },
    ]);
    expect((await endTurnTextHere(repo, "A")).stderr).toContain(`git -C ${repo} push -u <remote> feature`);
    g(repo, "push", "-q", "origin", "feature");
    expect((await endTurnHere(repo, "A")).code).toBe(0);
  });

  it("passes a committed repository that has no remote at all", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    await writeHere(repo, "A", "a.txt");
    expect((await endTurnHere(repo, "A")).code).toBe(1);
    commit(repo, "a", "a.txt");
    expect(await endTurnHere(repo, "A")).toMatchObject({ code: 0, json: { ok: true } });
  });

  it("keeps a claim released by post-commit in scope until the commit is pushed", async () => {
    const { repo } = clonedRepo(tempDir(), "repo");
    installGitHooks(repo);
    await writeHere(repo, "A", "a.txt");
    commit(repo, "a", "a.txt");
    expect(ledger(repo).claims).toEqual([]);
    expect(ledger(repo).events.find((e) => e.kind === "claim.released")?.data).toMatchObject({
      path: "a.txt",
      reason: "commit",
    });
    expect(problems((await endTurnHere(repo, "A")).json.findings)).toEqual({
      unpushed: [{ repo, branch: "main", upstream: "origin/main", ahead: 1 }],
    });
    g(repo, "push", "-q");
    expect((await endTurnHere(repo, "A")).code).toBe(0);
  });

  it("keeps a file changed only by an opaque shell command in scope", async () => {
    const { repo } = clonedRepo(tempDir(), "repo");
    writeFiles(repo, { "gen.sh": "echo generated > gen.txt\n" });
    commit(repo, "generator", "gen.sh");
    g(repo, "push", "-q");
    await shellHere(repo, "A", "sh ./gen.sh");
    expect(ledger(repo).claims).toEqual([]);
    expect(problems((await endTurnHere(repo, "A")).json.findings)).toEqual({
      dirty: [{ repo, path: "gen.txt", state: "??" }],
    });
    commit(repo, "gen", "gen.txt");
    expect((await endTurnHere(repo, "A")).json.findings.unpushed).toHaveLength(1);
    g(repo, "push", "-q");
    expect((await endTurnHere(repo, "A")).code).toBe(0);
  });

  it("reports a repository whose Git state is corrupt as unverifiable, never clean", async () => {
    const { repo } = clonedRepo(tempDir(), "repo");
    await writeHere(repo, "A", "a.txt");
    commit(repo, "a", "a.txt");
    g(repo, "push", "-q");
    writeFiles(repo, { ".git/index": "not an index" });
    const r = await endTurnHere(repo, "A");
    expect(r.code).toBe(1);
    expect(problems(r.json.findings)).toEqual({
      unverifiable: [{ repo, reason: expect.stringMatching(/git status failed in /) }],
    });
    expect((await endTurnTextHere(repo, "A")).stderr).toContain("Could not be verified (1):");
  });

  it("checks a coordination root that lies below its repository's top in that repository", async () => {
    const { repo } = clonedRepo(tempDir(), "repo");
    const pkg = join(repo, "pkg");
    writeFiles(pkg, { ".tandem/config.jsonc": "{}\n" });
    commit(repo, "config", "pkg/.tandem/config.jsonc");
    g(repo, "push", "-q");
    await writeHere(pkg, "A", "a.txt");
    expect(problems((await endTurnHere(pkg, "A")).json.findings)).toEqual({
      dirty: [{ repo, path: "pkg/a.txt", state: "??" }],
    });
    commit(repo, "a", "pkg/a.txt");
    g(repo, "push", "-q");
    expect((await endTurnHere(pkg, "A")).code).toBe(0);
  });

  it("a denied write claims nothing and so adds nothing to the scope", async () => {
    const { repo } = clonedRepo(tempDir(), "repo");
    await writeHere(repo, "A", "a.txt");
    const b = hook(
      "codex",
      "pre-tool-use",
      codexPatch(repo, "B", "*** Begin Patch\n*** Add File: a.txt\n+b\n*** End Patch\n"),
      {
        cwd: repo,
      },
    );
    expect(denied(b)).toMatch(/held by/);
    expect((await endTurnHere(repo, "B")).code).toBe(0);
  });
});
