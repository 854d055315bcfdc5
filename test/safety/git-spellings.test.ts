/**
 * Issue 25, deliverable 8: git spellings that used to run and leave only the safety net's copy
 * (aliases, GIT_DIR/--work-tree, xargs, plumbing). A holds a staged edit and an unstaged edit
 * of a tracked file (f.txt) and a staged new file (n.txt); each command from B's shell goes
 * through the real pre-tool hook and, when allowed, runs for real. A refused command must leave
 * A's index and files exactly as they were; an allowed one must not have touched them either.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claudeBash, claudeWrite, denied, fakeAgent } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { patient } from "../helpers/patience.js";
import { g, initRepo, writeFiles } from "../helpers/repo.js";
import { restorable } from "../helpers/scenario.js";

/** A's state: what the index holds (staged) and what the files hold (unstaged on top). */
const STAGED: Record<string, string> = { "f.txt": "A's staged edit\n", "n.txt": "A's new file\n" };
const FILES: Record<string, string> = { "f.txt": "A's unstaged edit on top\n", "n.txt": "A's new file\n" };

type World = { base: string; repo: string; b: Record<string, string> };

/** Built once through the real hooks and put back at the same path for each case. */
const world = restorable("git-spellings", build);

async function build(base: string): Promise<World> {
  const repo = initRepo(join(base, "repo"), { "f.txt": "one\n", "g.txt": "g\n", "README.md": "hi\n" });
  writeFiles(repo, { "f.txt": "two\n" });
  g(repo, "commit", "-qam", "second");
  // The repository's own alias, as a user may have set it long before.
  g(repo, "config", "alias.wipe", "reset --hard");
  // Another repository beside it, for commands pointed there.
  const other = initRepo(join(base, "other"), { "f.txt": "other\n" });
  writeFiles(other, { "f.txt": "other, changed\n" });
  const a = fakeAgent();
  const b = fakeAgent();
  for (const file of Object.keys(STAGED)) {
    expect(
      denied(await hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", file), { cwd: repo, env: a })),
    ).toBeNull();
    writeFiles(repo, { [file]: STAGED[file]! });
    g(repo, "add", "--", file);
    writeFiles(repo, { [file]: FILES[file]! });
  }
  expect(
    denied(await hook("claude-code", "pre-tool-use", claudeWrite(repo, "B", "b.txt"), { cwd: repo, env: b })),
  ).toBeNull();
  return { base, repo, b: { ...b, CLAUDE_CODE_SESSION_ID: "B" } };
}

/** A's index entries and files, read back. */
function aState(repo: string): { staged: Record<string, string>; files: Record<string, string> } {
  const read = (f: string) => {
    try {
      return readFileSync(join(repo, f), "utf8");
    } catch {
      return "(gone)";
    }
  };
  const show = (f: string) => {
    try {
      return g(repo, "show", `:${f}`);
    } catch {
      return "(not in the index)";
    }
  };
  const files = Object.keys(STAGED);
  return {
    staged: Object.fromEntries(files.map((f) => [f, show(f)])),
    files: Object.fromEntries(files.map((f) => [f, read(f)])),
  };
}

/** B's command through the real pre-tool hook; run for real when allowed. Returns the refusal, if any. */
async function runAsB(w: World, commandTemplate: string): Promise<string | null> {
  const command = commandTemplate.replaceAll("{BASE}", w.base);
  const reason = denied(
    await hook("claude-code", "pre-tool-use", claudeBash(w.repo, "B", command), { cwd: w.repo, env: w.b }),
  );
  if (reason !== null) return reason;
  try {
    execFileSync("bash", ["-c", command], { cwd: w.repo, stdio: "ignore", timeout: patient(20_000) });
  } catch {
    // A command that failed still ran: what it left behind is what counts.
  }
  return null;
}

const REFUSED = [
  // The six spellings.
  "git config alias.y 'checkout .' && git y",
  "GIT_DIR=.git git checkout .",
  "git --work-tree=. checkout -- .",
  "git read-tree -u --reset HEAD",
  "git checkout-index -f -a",
  "echo . | xargs git checkout",
  // Aliases.
  "git -c alias.y='checkout .' y",
  "git wipe",
  "git config --local alias.co checkout && git co -f HEAD -- f.txt",
  // Repository and working tree named another way.
  "export GIT_DIR=.git GIT_WORK_TREE=.; git stash -u",
  "env GIT_WORK_TREE=. git reset --hard",
  'GIT_DIR="$(git rev-parse --git-dir)" git reset --hard',
  "git --git-dir={BASE}/repo/.git --work-tree={BASE}/repo restore --staged --worktree -- .",
  // xargs, with input the reader sees and input it cannot.
  "printf '%s\\n' f.txt | xargs git checkout --",
  "echo n.txt | xargs -I{} git rm -f {}",
  "git ls-files -m | xargs git checkout --",
  // Plumbing.
  "git read-tree -m -u HEAD~1",
  "git checkout-index -f -- f.txt",
  "git update-index --force-remove n.txt",
];

const ALLOWED = [
  "GIT_DIR=.git git checkout -- g.txt",
  "echo g.txt | xargs git checkout --",
  "git checkout-index -f -- g.txt",
  "git -c alias.y='checkout -- g.txt' y",
  // Pointed at another repository: A's work is not there.
  "GIT_DIR={BASE}/other/.git GIT_WORK_TREE={BASE}/other git checkout -- .",
  "git --git-dir={BASE}/other/.git --work-tree={BASE}/other reset --hard",
];

describe("B's git command spelled another way, over A's staged and unstaged work", () => {
  it.each(REFUSED)("refuses %s up front and leaves A's index and files as they were", async (command) => {
    const w = await world();
    const before = aState(w.repo);
    expect(before).toEqual({ staged: STAGED, files: FILES });
    const reason = await runAsB(w, command);
    expect(reason).toContain("Tandem refused this command before it ran");
    expect(reason).toMatch(/f\.txt|n\.txt/);
    expect(reason).toContain("What to do:");
    expect(aState(w.repo)).toEqual(before);
  });

  it.each(ALLOWED)("allows %s, which touches none of A's work", async (command) => {
    const w = await world();
    const before = aState(w.repo);
    expect(await runAsB(w, command)).toBeNull();
    expect(aState(w.repo)).toEqual(before);
  });

  it("lets the command pointed at another repository do its work there", async () => {
    const w = await world();
    expect(
      await runAsB(w, "git --git-dir={BASE}/other/.git --work-tree={BASE}/other reset --hard"),
    ).toBeNull();
    expect(readFileSync(join(w.base, "other", "f.txt"), "utf8")).toBe("other\n");
  });
});
