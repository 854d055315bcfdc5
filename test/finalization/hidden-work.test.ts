/** Work `git status` does not show: stash entries, index flags that hide changes, ignored paths. */
import { describe, expect, it } from "vitest";
import { g, tempDir, writeFiles } from "../helpers/repo.js";
import {
  clonedRepo,
  commit,
  endTurnHere,
  endTurnTextHere,
  events,
  problems,
  shellHere,
  writeHere,
} from "./fixture.js";

/** A pushed clone whose identity lets plain `git stash` in a shell command commit. */
function repoWithIdentity(): string {
  const { repo } = clonedRepo(tempDir(), "repo");
  g(repo, "config", "user.name", "Agent");
  g(repo, "config", "user.email", "agent@tandem.invalid");
  return repo;
}

function stashCreated(root: string): unknown[] {
  return events(root)
    .filter((e) => e.kind === "stash.created")
    .map((e) => e.data);
}

describe("end-turn: stash entries a session created", () => {
  it("fails while the session's stash entry exists, and passes once it is popped and committed", async () => {
    const repo = repoWithIdentity();
    await writeHere(repo, "A", "a.txt", "work\n");
    await shellHere(repo, "A", "git stash push -u -q -m 'half done'");
    const sha = g(repo, "rev-parse", "refs/stash").trim();
    expect(stashCreated(repo)).toEqual([{ repo, sha, message: "On main: half done" }]);

    const stashed = await endTurnHere(repo, "A");
    expect(stashed.code).toBe(1);
    expect(problems(stashed.json.findings)).toEqual({
      stashed: [{ repo, sha, message: "On main: half done", ref: "stash@{0}" }],
    });
    const text = (await endTurnTextHere(repo, "A")).stderr;
    expect(text).toContain("Work left in stash entries this session created (1):");
    expect(text).toContain(`git -C ${repo} stash pop stash@{0} and commit the changes`);
    expect(text).toContain(`git -C ${repo} stash drop stash@{0} if it is not needed`);

    await shellHere(repo, "A", "git stash pop -q");
    expect(problems((await endTurnHere(repo, "A")).json.findings)).toEqual({
      dirty: [{ repo, path: "a.txt", state: "??" }],
    });
    commit(repo, "a", "a.txt");
    g(repo, "push", "-q");
    expect(await endTurnHere(repo, "A")).toMatchObject({ code: 0, json: { ok: true } });
  });

  it("still fails once the session's stash entry is dropped: the work is in no branch (issue 37.4)", async () => {
    const repo = repoWithIdentity();
    await writeHere(repo, "A", "a.txt");
    await shellHere(repo, "A", "git stash -u -q");
    const sha = g(repo, "rev-parse", "refs/stash").trim();
    expect((await endTurnHere(repo, "A")).code).toBe(1);
    await shellHere(repo, "A", "git stash drop -q");
    expect(problems((await endTurnHere(repo, "A")).json.findings)).toEqual({
      unreached: [{ repo, path: "a.txt", sha, kind: "stash", stash: sha }],
    });
  });

  it("records `git stash create` followed by `git stash store` as the session's entry", async () => {
    const repo = repoWithIdentity();
    await writeHere(repo, "A", "README.md", "edited\n");
    await shellHere(
      repo,
      "A",
      'git stash store -m kept "$(git stash create)" && git checkout -q -- README.md',
    );
    const sha = g(repo, "rev-parse", "refs/stash").trim();
    expect(problems((await endTurnHere(repo, "A")).json.findings)).toEqual({
      stashed: [{ repo, sha, message: "kept", ref: "stash@{0}" }],
    });
  });

  it("does not fail a session over a stash entry another session created", async () => {
    const repo = repoWithIdentity();
    await writeHere(repo, "B", "b.txt");
    await shellHere(repo, "B", "git stash push -u -q -- b.txt");
    await writeHere(repo, "A", "a.txt");
    commit(repo, "a", "a.txt");
    g(repo, "push", "-q");
    expect(await endTurnHere(repo, "A")).toMatchObject({ code: 0, json: { ok: true } });
    expect(problems((await endTurnHere(repo, "B")).json.findings)).toMatchObject({
      stashed: [{ repo, ref: "stash@{0}" }],
    });
  });

  it("does not count an entry that was already in the stash before the command", async () => {
    const repo = repoWithIdentity();
    writeFiles(repo, { "human.txt": "h\n" });
    g(repo, "stash", "push", "-u", "-q");
    await writeHere(repo, "A", "a.txt");
    commit(repo, "a", "a.txt");
    g(repo, "push", "-q");
    // A stash command that creates nothing (`list`) leaves the human's entry unattributed.
    await shellHere(repo, "A", "git stash list >/dev/null");
    expect(stashCreated(repo)).toEqual([]);
    expect(await endTurnHere(repo, "A")).toMatchObject({ code: 0, json: { ok: true } });
  });
});

describe("end-turn: owned paths whose changes Git hides", () => {
  it.each([
    ["skip-worktree", "--skip-worktree"],
    ["assume-unchanged", "--assume-unchanged"],
  ] as const)("fails on an owned %s path with the update-index remedy", async (flag, option) => {
    const repo = repoWithIdentity();
    await writeHere(repo, "A", "README.md", "edited\n");
    g(repo, "update-index", option, "--", "README.md");
    const r = await endTurnHere(repo, "A");
    expect(r.code).toBe(1);
    expect(problems(r.json.findings)).toEqual({ hidden: [{ repo, path: "README.md", flags: [flag] }] });
    const text = (await endTurnTextHere(repo, "A")).stderr;
    expect(text).toContain("Owned files whose changes Git is told not to show (1):");
    expect(text).toContain(`git -C ${repo} update-index --no-${flag} -- README.md`);

    g(repo, "update-index", `--no-${flag}`, "--", "README.md");
    expect(problems((await endTurnHere(repo, "A")).json.findings)).toEqual({
      dirty: [{ repo, path: "README.md", state: ".M" }],
    });
  });

  it.each([
    ["a split index", ["update-index", "--split-index"]],
    ["an index of version 4", ["update-index", "--index-version", "4"]],
  ])("finds an owned skip-worktree path in %s too", async (_n, args) => {
    const repo = repoWithIdentity();
    await writeHere(repo, "A", "README.md", "edited\n");
    g(repo, ...args);
    g(repo, "update-index", "--skip-worktree", "--", "README.md");
    expect(problems((await endTurnHere(repo, "A")).json.findings)).toEqual({
      hidden: [{ repo, path: "README.md", flags: ["skip-worktree"] }],
    });
  });

  it("does not fail over a flagged path the session does not own", async () => {
    const repo = repoWithIdentity();
    g(repo, "update-index", "--skip-worktree", "--", "README.md");
    await writeHere(repo, "A", "a.txt");
    commit(repo, "a", "a.txt");
    g(repo, "push", "-q");
    expect(await endTurnHere(repo, "A")).toMatchObject({ code: 0, json: { ok: true } });
  });
});

describe("end-turn: owned paths Git ignores", () => {
  it("passes, and shows ignored owned files and files in ignored directories as not finalized", async () => {
    const repo = repoWithIdentity();
    writeFiles(repo, { ".gitignore": "*.log\nbuild/\n" });
    commit(repo, "ignore", ".gitignore");
    g(repo, "push", "-q");
    await writeHere(repo, "A", "run.log");
    await writeHere(repo, "A", "build/out.js");
    const r = await endTurnHere(repo, "A");
    expect(r.code).toBe(0);
    expect(problems(r.json.findings)).toEqual({
      ignored: [
        { repo, path: "build/out.js" },
        { repo, path: "run.log" },
      ],
    });
    const box = await endTurnTextHere(repo, "A");
    expect(box.code).toBe(0);
    expect(box.stdout).toContain("ignored  2, not finalized: build/out.js, run.log");
    expect(box.stdout).toContain("end-turn check passed");
  });

  it("lists ignored owned files beside the failures without counting them", async () => {
    const repo = repoWithIdentity();
    writeFiles(repo, { ".gitignore": "*.log\n" });
    commit(repo, "ignore", ".gitignore");
    g(repo, "push", "-q");
    await writeHere(repo, "A", "run.log");
    await writeHere(repo, "A", "a.txt");
    const text = await endTurnTextHere(repo, "A");
    expect(text.code).toBe(1);
    expect(text.stderr).toContain("Uncommitted changes in files this session owns (1):");
    expect(text.stderr).toContain("Ignored by Git, not finalized (1; this does not fail the check):");
    expect(text.stderr).toContain(`${repo}: run.log`);
  });
});
