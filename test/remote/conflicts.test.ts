import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type PresenceDoc, presenceText } from "../../src/core/remote/presence.js";
import { writeDocCommit } from "../../src/remote/objects.js";
import { tandem } from "../helpers/cli.js";
import { g, initRepo, tempDir, writeFiles } from "../helpers/repo.js";

/** A bare remote seeded with `f` (two lines) and `g`, and two clones of it. */
function twoClones(): { a: string; b: string } {
  const base = tempDir();
  const remote = join(base, "remote.git");
  g(base, "init", "-q", "--bare", "-b", "main", remote);
  const seed = initRepo(join(base, "seed"), { f: "one\ntwo\n", g: "g\n" });
  g(seed, "push", "-q", `file://${remote}`, "main");
  const [a, b] = ["a", "b"].map((n) => {
    g(base, "clone", "-q", `file://${remote}`, join(base, n));
    return join(base, n);
  }) as [string, string];
  return { a, b };
}

function commitAndPush(repo: string, branch: string, files: Record<string, string>): void {
  g(repo, "checkout", "-q", "-B", branch, "origin/main");
  writeFiles(repo, files);
  g(repo, "commit", "-q", "-am", `edit on ${branch}`);
  g(repo, "push", "-q", "origin", branch);
}

function publishPresence(repo: string, id: string, session: string, claims: string[], dirty: string[]): void {
  const doc: PresenceDoc = {
    format: 1,
    checkout: { id, name: `${id}-box:/src/app` },
    published: Date.now(),
    base: null,
    branch: "main",
    upstream: "origin/main",
    sessions: [
      { name: session, client: "codex", task: null, branch: "main", lastSeen: Date.now(), claims, dirty },
    ],
  };
  const commit = writeDocCommit(repo, "presence.json", presenceText(doc), "tandem presence");
  g(repo, "push", "-q", "origin", `${commit}:refs/tandem/presence/${id}`);
}

const forecast = (cwd: string) => {
  const r = tandem(["conflicts", "--json"], { cwd });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

describe("tandem conflicts", () => {
  it("predicts a real conflict for a branch editing the line main changed, and a clean merge for another", () => {
    const { a, b } = twoClones();
    commitAndPush(a, "feat", { f: "ONE from feat\ntwo\n" });
    commitAndPush(a, "docs", { g: "g, documented\n" });
    commitAndPush(b, "main", { f: "one from main\ntwo\n" });
    const out = forecast(b);
    expect(out.target).toBe("origin/main");
    expect(out.merges).toEqual([
      { target: "origin/main", branch: "origin/docs", clean: true, files: [] },
      { target: "origin/main", branch: "origin/feat", clean: false, files: ["f"] },
    ]);
    const text = tandem(["conflicts"], { cwd: b }).stdout;
    expect(text).toContain("origin/feat: conflicts with origin/main in f");
    expect(text).toContain("origin/docs: merges cleanly");
  });

  it("lists a path claimed in one checkout and dirty in another, naming both", () => {
    const { a, b } = twoClones();
    publishPresence(a, "c1", "agent-lark", ["src/x.ts", "src/only-here.ts"], []);
    publishPresence(a, "c2", "agent-wren", [], ["src/x.ts"]);
    const out = forecast(b);
    expect(out.fetch).toEqual({ remote: "origin", ok: true, error: null });
    expect(out.overlaps).toEqual([
      {
        path: "src/x.ts",
        sides: [
          { machine: "c1-box:/src/app", session: "agent-lark", branch: "main", task: null },
          { machine: "c2-box:/src/app", session: "agent-wren", branch: "main", task: null },
        ],
      },
    ]);
  });

  it("merges into the remote's HEAD when no --target is given, so a master repository works", () => {
    const base = tempDir();
    const remote = join(base, "remote.git");
    g(base, "init", "-q", "--bare", "-b", "master", remote);
    const seed = initRepo(join(base, "seed"), { f: "one\n" });
    g(seed, "push", "-q", `file://${remote}`, "HEAD:master");
    const clone = join(base, "clone");
    g(base, "clone", "-q", `file://${remote}`, clone);
    g(clone, "checkout", "-q", "-b", "feat");
    writeFiles(clone, { f: "two\n" });
    g(clone, "commit", "-q", "-am", "feat");
    g(clone, "push", "-q", "origin", "feat");
    const out = forecast(clone);
    expect(out.target).toBe("origin/master");
    expect(out.merges).toContainEqual({
      target: "origin/master",
      branch: "origin/feat",
      clean: true,
      files: [],
    });
  });

  it("falls back to remote.targetBranches when the remote has no HEAD, and says what to pass when none exists", () => {
    const repo = initRepo(join(tempDir(), "repo"), { f: "one\n" });
    g(repo, "branch", "-m", "trunk");
    const none = tandem(["conflicts", "--no-fetch"], { cwd: repo });
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/cannot tell which branch work merges into.*pass --target BRANCH/);
    writeFiles(repo, { ".tandem/config.jsonc": '{ "remote": { "targetBranches": ["develop", "trunk"] } }' });
    const r = tandem(["conflicts", "--json", "--no-fetch"], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).target).toBe("trunk");
  });
});
