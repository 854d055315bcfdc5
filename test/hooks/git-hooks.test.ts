import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { installGitHooks } from "../helpers/git-hooks.js";
import { claudeWrite, fakeAgent, ledger } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { g, initRepo, tempDir, writeFiles } from "../helpers/repo.js";

/** `git commit` as an agent's shell would run it: with the client's session variable set. */
function commit(repo: string, env: Record<string, string>, ...args: string[]) {
  return spawnSync("git", ["-c", "user.name=T", "-c", "user.email=t@t", "commit", "-q", ...args], {
    cwd: repo,
    env: { ...process.env, XDG_CONFIG_HOME: "/nonexistent", ...env },
    encoding: "utf8",
  });
}

const agents = new Map<string, Record<string, string>>();
const agentEnv = (session: string) => agents.get(session) ?? agents.set(session, fakeAgent()).get(session)!;

async function claimAndWrite(repo: string, session: string, file: string, content: string): Promise<void> {
  await hook("claude-code", "pre-tool-use", claudeWrite(repo, session, file), {
    cwd: repo,
    env: agentEnv(session),
  });
  writeFiles(repo, { [file]: content });
}

describe("git hooks", () => {
  it("post-commit releases claims on files the commit made clean, and only those", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    installGitHooks(repo);
    await claimAndWrite(repo, "A", "a.txt", "a\n");
    await claimAndWrite(repo, "A", "b.txt", "b\n");
    g(repo, "add", "a.txt");
    expect(commit(repo, { CLAUDE_CODE_SESSION_ID: "A" }, "-m", "a").status).toBe(0);
    expect(ledger(repo).claims).toEqual([{ path: "b.txt", holder: "A" }]);
    const released = ledger(repo).events.find((e) => e.kind === "claim.released")!.data;
    expect(released).toMatchObject({ path: "a.txt", reason: "commit" });
  });

  it("post-commit releases a claim after a commit made from inside a submodule", async () => {
    const base = tempDir();
    const lib = initRepo(join(base, "lib"));
    const app = initRepo(join(base, "app"));
    g(app, "submodule", "add", "-q", lib, "vendor/lib");
    g(app, "commit", "-qm", "submodule");
    const sub = join(app, "vendor", "lib");
    installGitHooks(app);
    installGitHooks(sub);
    await claimAndWrite(app, "A", "vendor/lib/x.c", "int x;\n");
    expect(ledger(app).claims).toEqual([{ path: "vendor/lib/x.c", holder: "A" }]);
    g(sub, "add", "x.c");
    expect(commit(sub, { CLAUDE_CODE_SESSION_ID: "A" }, "-m", "x").status).toBe(0);
    expect(ledger(app).claims).toEqual([]);
  });

  it("post-checkout releases a claim whose changes were discarded", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    installGitHooks(repo);
    await claimAndWrite(repo, "A", "README.md", "changed\n");
    g(repo, "checkout", "--", "README.md");
    expect(ledger(repo).claims).toEqual([]);
    expect(ledger(repo).events.find((e) => e.kind === "claim.released")!.data).toMatchObject({
      reason: "checkout",
    });
  });

  it("post-checkout keeps A's claim when a live peer's checkout discarded A's changes", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    installGitHooks(repo);
    await claimAndWrite(repo, "A", "README.md", "A's edit\n");
    await claimAndWrite(repo, "B", "other.txt", "b\n");
    const r = spawnSync("git", ["checkout", "--", "README.md"], {
      cwd: repo,
      env: { ...process.env, XDG_CONFIG_HOME: "/nonexistent", CLAUDE_CODE_SESSION_ID: "B" },
    });
    expect(r.status).toBe(0);
    expect(ledger(repo).claims).toContainEqual({ path: "README.md", holder: "A" });
    expect(ledger(repo).events.filter((e) => e.kind === "claim.released")).toEqual([]);
  });

  it("post-commit keeps A's claim when a live peer committed A's file past the pre-commit hook", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    installGitHooks(repo);
    await claimAndWrite(repo, "A", "a.txt", "A's work\n");
    await claimAndWrite(repo, "B", "b.txt", "b\n");
    g(repo, "add", "a.txt", "b.txt");
    expect(commit(repo, { CLAUDE_CODE_SESSION_ID: "B" }, "--no-verify", "-m", "took A's file").status).toBe(
      0,
    );
    expect(ledger(repo).claims).toEqual([{ path: "a.txt", holder: "A" }]);
  });

  it("pre-commit refuses an agent's commit of a file a live peer holds, naming path and holder", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    installGitHooks(repo);
    await claimAndWrite(repo, "A", "a.txt", "a\n");
    await claimAndWrite(repo, "B", "b.txt", "b\n");
    g(repo, "add", "a.txt", "b.txt");
    const r = commit(repo, { CLAUDE_CODE_SESSION_ID: "B" }, "-m", "contaminated");
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/commit refused.*\n\s+a\.txt \(held by agent-\w+\)/);
    expect(g(repo, "log", "--oneline").trim().split("\n")).toHaveLength(1);
    expect(ledger(repo).events.find((e) => e.kind === "commit.guarded")!.data).toMatchObject({
      outcome: "refused",
    });
  });

  it("pre-commit lets an agent commit its own claimed files", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    installGitHooks(repo);
    await claimAndWrite(repo, "A", "a.txt", "a\n");
    await claimAndWrite(repo, "B", "b.txt", "b\n");
    g(repo, "add", "b.txt");
    expect(commit(repo, { CLAUDE_CODE_SESSION_ID: "B" }, "-m", "mine").status).toBe(0);
  });

  it("pre-commit judges the files of `git commit -a` through git's temporary index", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    installGitHooks(repo);
    g(repo, "add", "-A");
    await claimAndWrite(repo, "A", "README.md", "peer edit\n");
    const r = commit(
      repo,
      { CODEX_THREAD_ID: "nobody", CLAUDE_CODE_SESSION_ID: "B-unknown" },
      "-a",
      "-m",
      "all",
    );
    // The committer is not a known session: warned, not refused.
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/could not be attributed.*\n\s+README\.md/);
  });

  it("pre-commit only warns a human, and an agent's TANDEM_BYPASS=1 is refused and recorded", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    installGitHooks(repo);
    await claimAndWrite(repo, "A", "a.txt", "a\n");
    await hook("claude-code", "pre-tool-use", claudeWrite(repo, "B", "c.txt"), {
      cwd: repo,
      env: agentEnv("B"),
    });
    g(repo, "add", "a.txt");
    // No terminal of a person's: the switch is not B's to use (decision 0050).
    const bypass = commit(repo, { CLAUDE_CODE_SESSION_ID: "B", TANDEM_BYPASS: "1" }, "-m", "bypass");
    expect(bypass.status).not.toBe(0);
    expect(bypass.stderr).toMatch(/TANDEM_BYPASS=1 is not honoured/);
    const human = commit(repo, {}, "-m", "human");
    expect(human.status).toBe(0);
    expect(human.stderr).toMatch(/could not be attributed/);
    expect(
      ledger(repo)
        .events.filter((e) => e.kind === "commit.guarded")
        .map((e) => e.data as { outcome: string; bypassRefused?: boolean }),
    ).toEqual([
      expect.objectContaining({ outcome: "refused", bypassRefused: true }),
      expect.objectContaining({ outcome: "warned" }),
    ]);
  });
});
