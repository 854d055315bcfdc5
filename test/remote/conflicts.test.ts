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
});
