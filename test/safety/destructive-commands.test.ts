/**
 * Issue 11's promise, command by command: with A holding uncommitted edits to a
 * tracked file (f.txt) and a new file (n.txt), each command from B's shell goes
 * through the real pre-tool hook, runs for real in the repository, and through the
 * real post-tool hook. A's bytes must end either untouched (refused up front) or
 * restored by `tandem recover` — and the table says which.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tandem } from "../helpers/cli.js";
import { claudeBash, claudeWrite, denied, fakeAgent } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { patient } from "../helpers/patience.js";
import { g, initRepo, writeFiles } from "../helpers/repo.js";
import { restorable } from "../helpers/scenario.js";

const A_BYTES: Record<string, string> = { "f.txt": "A's uncommitted edit\n", "n.txt": "A's new file\n" };

type World = { base: string; repo: string; a: Record<string, string>; b: Record<string, string> };

/**
 * The world, fresh for each case: built once through the real hooks, the repository and its store
 * put back at the same path (the store records absolute paths), A and B the same live agents throughout.
 */
const world = restorable("destructive-commands", build);

async function build(base: string): Promise<World> {
  const repo = initRepo(join(base, "repo"), { "f.txt": "one\n", "g.txt": "g\n", "README.md": "hi\n" });
  writeFiles(repo, { "f.txt": "two\n" });
  g(repo, "commit", "-qam", "second");
  g(repo, "branch", "side");
  g(repo, "checkout", "-q", "side");
  writeFiles(repo, { "f.txt": "side\n" });
  g(repo, "commit", "-qam", "side changes f");
  g(repo, "checkout", "-q", "main");
  writeFileSync(join(base, "f.patch"), g(repo, "diff", "main", "side"));
  g(repo, "format-patch", "-q", "-1", "side", "-o", join(base, "mail"));
  const a = fakeAgent();
  const b = fakeAgent();
  for (const file of Object.keys(A_BYTES)) {
    expect(
      denied(await hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", file), { cwd: repo, env: a })),
    ).toBeNull();
    writeFileSync(join(repo, file), A_BYTES[file]!);
  }
  expect(
    denied(await hook("claude-code", "pre-tool-use", claudeWrite(repo, "B", "b.txt"), { cwd: repo, env: b })),
  ).toBeNull();
  return { base, repo, a, b: { ...b, CLAUDE_CODE_SESSION_ID: "B" } };
}

type Outcome = "refused" | "recovered" | "untouched";

async function runAsB(w: World, commandTemplate: string): Promise<Outcome> {
  // Paths outside the repository are written literally, as an agent would.
  const command = commandTemplate.replaceAll("{BASE}", w.base);
  const pre = await hook("claude-code", "pre-tool-use", claudeBash(w.repo, "B", command), {
    cwd: w.repo,
    env: w.b,
  });
  const reason = denied(pre);
  if (reason !== null) {
    expect(reason).toMatch(/agent-\w+/);
    for (const [file, bytes] of Object.entries(A_BYTES))
      expect(readFileSync(join(w.repo, file), "utf8")).toBe(bytes);
    return "refused";
  }
  try {
    execFileSync("bash", ["-c", command], {
      cwd: w.repo,
      stdio: "ignore",
      timeout: patient(20_000),
      env: {
        ...process.env,
        GIT_EDITOR: "true",
        GIT_AUTHOR_NAME: "B",
        GIT_AUTHOR_EMAIL: "b@b",
        GIT_COMMITTER_NAME: "B",
        GIT_COMMITTER_EMAIL: "b@b",
      },
    });
  } catch {
    // A command that failed still ran: what it left behind is what counts.
  }
  await hook("claude-code", "post-tool-use", claudeBash(w.repo, "B", command, "PostToolUse"), {
    cwd: w.repo,
    env: w.b,
  });
  let recovered = false;
  for (const [file, bytes] of Object.entries(A_BYTES)) {
    let now: string | null;
    try {
      now = readFileSync(join(w.repo, file), "utf8");
    } catch {
      now = null;
    }
    if (now === bytes) continue;
    const r = tandem(["recover", file, "--session", "A"], { cwd: w.repo });
    expect(r.stderr).toBe("");
    expect(readFileSync(join(w.repo, file), "utf8")).toBe(bytes);
    recovered = true;
  }
  return recovered ? "recovered" : "untouched";
}

const CASES: [string, Outcome][] = [
  // checkout / restore / switch
  ["git checkout .", "refused"],
  ["git checkout -- f.txt", "refused"],
  ["git checkout f.txt", "refused"],
  ["git checkout -f main", "refused"],
  ["git checkout -f side", "refused"],
  ["git checkout side -- f.txt", "refused"],
  ["git checkout -- '*.txt'", "refused"],
  ["git -C . checkout -- .", "refused"],
  ["git restore .", "refused"],
  ["git restore f.txt", "refused"],
  ["git restore --source=HEAD~1 --worktree -- f.txt", "refused"],
  ["git switch -f side", "refused"],
  ["git switch --discard-changes main", "refused"],
  // stash
  ["git stash", "refused"],
  ["git stash -u", "refused"],
  ["git stash -u && git stash drop", "refused"],
  ["git stash push --keep-index", "refused"],
  ["git stash push -- f.txt", "refused"],
  ["git stash -a", "refused"],
  // reset / clean / rm / mv
  ["git reset --hard", "refused"],
  ["git reset --hard HEAD~1", "refused"],
  ["git reset --keep side", "refused"],
  ["git clean -fd", "refused"],
  ["git clean -f -x -d .", "refused"],
  ["git rm -f f.txt", "refused"],
  ["git rm -rf .", "refused"],
  ["git mv -f g.txt f.txt", "refused"],
  // patches and history
  ["git apply {BASE}/f.patch", "refused"],
  ["git am {BASE}/mail/*.patch", "refused"],
  ["git merge --autostash side", "refused"],
  ["git rebase --autostash side", "refused"],
  ["git cherry-pick side", "refused"],
  ["git revert --no-edit HEAD", "refused"],
  // commits that skip the pre-commit hook
  ["git commit --no-verify -am 'took it'", "refused"],
  ["git add -A && git commit -n -m 'took it'", "refused"],
  ["git -c core.hooksPath=/dev/null commit -am 'took it'", "refused"],
  // shell forms Tandem resolves
  ["F=f.txt; echo B > $F", "refused"],
  ['F=f.txt; G="$F"; rm -- "$G"', "refused"],
  ["rm -rf ./*", "refused"],
  ["rm -f *.txt", "refused"],
  ["bash -c 'echo B > f.txt'", "refused"],
  ["(cd . && echo B > f.txt)", "refused"],
  ["sed -i s/A/B/ f.txt", "refused"],
  ["perl -pi -e 's/A/B/' f.txt", "refused"],
  ["cp README.md f.txt", "refused"],
  ["truncate -s0 n.txt", "refused"],
  // opaque forms: the safety net
  [`python3 -c "open('f.txt','w').write('B')"`, "recovered"],
  [`node -e "require('fs').writeFileSync('n.txt','B')"`, "recovered"],
  ["find . -name f.txt -delete", "recovered"],
  ['eval "echo B > f.txt"', "refused"],
  [`eval "$(printf 'echo B > f.txt')"`, "recovered"],
  ["echo 'rm -f f.txt n.txt' > s.sh && sh s.sh", "recovered"],
  ["ls | grep txt | xargs rm -f", "recovered"],
  ["$(echo rm) -f f.txt", "recovered"],
];

describe("B's commands over A's uncommitted work", () => {
  it.each(CASES)("%s → %s", async (command, expected) => {
    expect(await runAsB(await world(), command)).toBe(expected);
  });
});
