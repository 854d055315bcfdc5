/**
 * Issue 25, git that changes only the index. A is a live agent that staged work: f.txt staged and
 * then changed again (its staged version is in the index and nowhere else), n.txt a new file
 * staged. B, a second live agent, has its own staged b.txt. Each command from B's shell goes
 * through the real pre-tool hook and, when allowed, runs for real with B's identity (CLAUDE_PID)
 * and through the real post-tool hook.
 *
 * - A command that would drop or replace A's staged changes (`rm --cached`, a mixed `reset`,
 *   `read-tree` without `-u`, `restore --staged`, `update-index --force-remove`, `add` over a file
 *   changed since it was staged, and their aliases) is refused up front and leaves A's index as
 *   it was; where A has nothing staged (its index equals HEAD) the same command is allowed.
 * - `git add` spelled through an alias still counts for a later `git commit -n`, which skips the
 *   pre-commit hook that would judge what it commits.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gitShim } from "../finalization/fixture.js";
import { claudeBash, claudeWrite, denied, fakeAgent, hook as spawnHook } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { patient } from "../helpers/patience.js";
import { g, initRepo, writeFiles } from "../helpers/repo.js";
import { restorable } from "../helpers/scenario.js";

/** A's two kinds of work: staged then changed again, or only edited (nothing staged). */
type Kind = "staged" | "unstaged";
const A_INDEX: Record<Kind, Record<string, string | null>> = {
  staged: { "f.txt": "A's staged edit\n", "n.txt": "A's new file\n" },
  unstaged: { "f.txt": "two\n", "n.txt": null },
};
const A_FILES: Record<Kind, Record<string, string>> = {
  staged: { "f.txt": "A's unstaged edit on top\n", "n.txt": "A's new file\n" },
  unstaged: { "f.txt": "A's uncommitted edit\n", "n.txt": "A's new file\n" },
};

type World = { base: string; repo: string; b: Record<string, string> };

/** Built once per kind through the real hooks and put back at the same path for each case. */
const worlds = {
  staged: restorable("git-index-staged", (base) => build(base, "staged")),
  unstaged: restorable("git-index-unstaged", (base) => build(base, "unstaged")),
};
const world = (kind: Kind): Promise<World> => worlds[kind]();

async function build(base: string, kind: Kind): Promise<World> {
  const repo = initRepo(join(base, "repo"), { "f.txt": "one\n", "g.txt": "g\n", "README.md": "hi\n" });
  writeFiles(repo, { "f.txt": "two\n" });
  g(repo, "commit", "-qam", "second");
  // The repository's own aliases, as a user may have set them long before.
  g(repo, "config", "alias.unstage", "reset HEAD --");
  g(repo, "config", "alias.ad", "add --");
  g(repo, "config", "alias.ci", "commit -n");
  const a = fakeAgent();
  const b = { ...fakeAgent(), CLAUDE_CODE_SESSION_ID: "B" };
  const take = async (env: Record<string, string>, session: string, file: string) =>
    expect(
      denied(await hook("claude-code", "pre-tool-use", claudeWrite(repo, session, file), { cwd: repo, env })),
    ).toBeNull();
  for (const file of Object.keys(A_FILES[kind])) {
    await take(a, "A", file);
    const staged = A_INDEX[kind][file];
    if (staged !== null && staged !== undefined && kind === "staged") {
      writeFiles(repo, { [file]: staged });
      g(repo, "add", "--", file);
    }
    writeFiles(repo, { [file]: A_FILES[kind][file]! });
  }
  await take(b, "B", "b.txt");
  writeFiles(repo, { "b.txt": "B's file\n" });
  g(repo, "add", "--", "b.txt");
  return { base, repo, b };
}

const read = (repo: string, f: string) => {
  try {
    return readFileSync(join(repo, f), "utf8");
  } catch {
    return "(gone)";
  }
};
const indexed = (repo: string, f: string): string | null => {
  try {
    return g(repo, "show", `:${f}`);
  } catch {
    return null;
  }
};

/** A's index entries and files, read back. */
function aState(repo: string) {
  const files = ["f.txt", "n.txt"];
  return {
    index: Object.fromEntries(files.map((f) => [f, indexed(repo, f)])),
    files: Object.fromEntries(files.map((f) => [f, read(repo, f)])),
  };
}

const COMMITTER = {
  GIT_AUTHOR_NAME: "B",
  GIT_AUTHOR_EMAIL: "b@b",
  GIT_COMMITTER_NAME: "B",
  GIT_COMMITTER_EMAIL: "b@b",
};

/** B's command through the real pre-tool hook; run for real, as B, when allowed. Returns the refusal. */
async function runAsB(w: World, command: string): Promise<string | null> {
  const reason = denied(
    await hook("claude-code", "pre-tool-use", claudeBash(w.repo, "B", command), { cwd: w.repo, env: w.b }),
  );
  if (reason !== null) return reason;
  try {
    execFileSync("bash", ["-c", command], {
      cwd: w.repo,
      stdio: "ignore",
      timeout: patient(20_000),
      env: { ...process.env, ...w.b, ...COMMITTER },
    });
  } catch {
    // A command that failed still ran: what it left behind is what counts.
  }
  await hook("claude-code", "post-tool-use", claudeBash(w.repo, "B", command, "PostToolUse"), {
    cwd: w.repo,
    env: w.b,
  });
  return null;
}

/** Commands that drop or replace A's staged changes; each is allowed where A has nothing staged. */
const LOSE_STAGED = [
  "git rm --cached f.txt",
  "git rm --cached n.txt",
  "git rm -r -q --cached .",
  "git reset",
  "git reset -q -- f.txt",
  "git reset n.txt",
  "git reset --mixed HEAD",
  "git read-tree HEAD",
  "git read-tree -m HEAD",
  "git read-tree --empty",
  "git restore --staged f.txt",
  "git restore -S .",
  "git update-index --force-remove n.txt",
  "git add -A",
  "git add f.txt",
  "git update-index f.txt",
  // Aliases, the repository's and the command line's, and xargs with input the reader sees.
  "git unstage f.txt",
  "git -c alias.drop='rm --cached' drop n.txt",
  "git config alias.un 'reset -q' && git un",
  "echo f.txt | xargs git rm --cached",
];

describe("B's index-only git command over A's staged work", () => {
  it.each(LOSE_STAGED)("refuses %s up front and leaves A's index and files as they were", async (command) => {
    const w = await world("staged");
    const before = aState(w.repo);
    expect(before).toEqual({ index: A_INDEX.staged, files: A_FILES.staged });
    const reason = await runAsB(w, command);
    expect(reason).toContain("Tandem refused this command before it ran");
    expect(reason).toContain("staged with `git add`");
    expect(reason).toMatch(/(f|n)\.txt: agent-\w+'s uncommitted work/);
    expect(reason).toContain("What to do:");
    expect(aState(w.repo)).toEqual(before);
  });

  it.each(LOSE_STAGED)("allows %s where A has nothing staged (its index equals HEAD)", async (command) => {
    const w = await world("unstaged");
    const before = aState(w.repo);
    expect(before).toEqual({ index: A_INDEX.unstaged, files: A_FILES.unstaged });
    expect(await runAsB(w, command)).toBeNull();
    expect(aState(w.repo).files).toEqual(A_FILES.unstaged);
  });

  it.each([
    "git reset -- b.txt",
    "git rm --cached b.txt",
    "git restore --staged b.txt",
    "git update-index --force-remove b.txt",
    "git unstage b.txt",
  ])("lets %s unstage B's own file beside A's staged work", async (command) => {
    const w = await world("staged");
    const before = aState(w.repo);
    expect(await runAsB(w, command)).toBeNull();
    expect(aState(w.repo)).toEqual(before);
    expect(g(w.repo, "diff", "--cached", "--name-only", "--", "b.txt")).not.toContain("b.txt");
  });

  it.each([
    "git add b.txt g.txt",
    // n.txt's file is what A staged: staging it again replaces nothing.
    "git add n.txt",
  ])("allows %s, which replaces none of A's staged versions", async (command) => {
    const w = await world("staged");
    const before = aState(w.repo);
    expect(await runAsB(w, command)).toBeNull();
    expect(aState(w.repo)).toEqual(before);
  });
});

/** A staging spelling of A's f.txt followed by a commit that skips the pre-commit hook. */
const STAGE_THEN_COMMIT = [
  "git add f.txt && git commit -n -m took",
  "git config alias.a add && git a f.txt && git commit -n -m took",
  "git -c alias.a=add a f.txt && git commit -n -m took",
  "git ad f.txt && git commit -n -m took",
  "git stage f.txt && git commit --no-verify -m took",
  "git add f.txt && git ci -m took",
  "echo f.txt | xargs git add && git commit -n -m took",
  "git ls-files -m | xargs git add && git commit -n -m took",
];

describe("git add spelled another way, then a commit past the pre-commit hook", () => {
  it.each(STAGE_THEN_COMMIT)("refuses %s up front: A's file would be committed as B's", async (command) => {
    const w = await world("unstaged");
    const head = g(w.repo, "rev-parse", "HEAD");
    const reason = await runAsB(w, command);
    expect(reason).toContain("skips the pre-commit hook and would commit files another live agent");
    expect(reason).toMatch(/f\.txt: agent-\w+'s uncommitted work/);
    expect(g(w.repo, "rev-parse", "HEAD")).toBe(head);
    expect(aState(w.repo)).toEqual({ index: A_INDEX.unstaged, files: A_FILES.unstaged });
  });

  it.each([
    // The commit names its own path: git commits that alone, not what the alias staged.
    "git config alias.a add && git a f.txt && git commit -n -m mine -- b.txt",
    "git -c alias.a=add a b.txt && git commit -n -m mine",
  ])("allows %s, which commits only B's file", async (command) => {
    const w = await world("unstaged");
    expect(await runAsB(w, command)).toBeNull();
    expect(g(w.repo, "show", "--name-only", "--format=", "HEAD").trim()).toBe("b.txt");
    expect(read(w.repo, "f.txt")).toBe(A_FILES.unstaged["f.txt"]);
  });
});

describe("what the guard asks git", () => {
  // The shim sits on the PATH git is started with: the hook process's own, so this stays on the binary.
  /** The git processes B's pre-tool hook runs for `git reset -q`, logged by a shim on PATH. */
  function guardCalls(peerHoldsAFile: boolean): string[] {
    const base = realpathSync(mkdtempSync(join(tmpdir(), "tandem-git-index-calls-")));
    try {
      const repo = initRepo(join(base, "repo"), { "f.txt": "one\n" });
      const a = fakeAgent();
      const b = { ...fakeAgent(), CLAUDE_CODE_SESSION_ID: "B" };
      if (peerHoldsAFile) {
        const write = claudeWrite(repo, "A", "f.txt");
        expect(denied(spawnHook("claude-code", "pre-tool-use", write, { cwd: repo, env: a }))).toBeNull();
        writeFiles(repo, { "f.txt": "A's edit\n" });
      }
      const shim = gitShim(base);
      const payload = claudeBash(repo, "B", "git reset -q");
      expect(
        denied(spawnHook("claude-code", "pre-tool-use", payload, { cwd: repo, env: { ...b, ...shim.env } })),
      ).toBeNull();
      return shim.calls().map((c) => c.split("\t")[1]!);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  }

  it("asks nothing when no live peer owns a path, and what the reset would unstage when one does", async () => {
    const guard = (calls: string[]) =>
      calls.filter((c) => c.includes("rev-parse --show-toplevel --show-prefix"));
    expect(guard(guardCalls(false))).toEqual([]);
    expect(guard(guardCalls(true))).toHaveLength(1);
  });
});
