/** The shell hooks record the stash entries a session's command creates, at no extra git process. */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { raw } from "../../src/store/handle.js";
import { events, gitShim, shell } from "../finalization/fixture.js";
import { claudeBash, denied, hook } from "../helpers/hooks.js";
import { g, initRepo, tempDir, writeFiles } from "../helpers/repo.js";

function identity(repo: string): string {
  g(repo, "config", "user.name", "Agent");
  g(repo, "config", "user.email", "agent@tandem.invalid");
  return repo;
}

/** Pre-tool-use, the command, post-tool-use, with the hooks' git calls logged. */
function shellLogged(root: string, command: string, shim: ReturnType<typeof gitShim>): string[] {
  const before = shim.calls().length;
  expect(
    denied(hook("claude-code", "pre-tool-use", claudeBash(root, "A", command), { cwd: root, env: shim.env })),
  ).toBeNull();
  expect(spawnSync("sh", ["-c", command], { cwd: root }).status).toBe(0);
  hook("claude-code", "post-tool-use", claudeBash(root, "A", command, "PostToolUse"), {
    cwd: root,
    env: shim.env,
  });
  return shim.calls().slice(before);
}

function savedStashes(root: string): (string | null)[] {
  const db = openDb(join(root, ".git", "tandem"));
  try {
    return (
      raw(db).prepare("SELECT stashes FROM shell_snapshots ORDER BY started_at").all() as {
        stashes: string | null;
      }[]
    ).map((r) => r.stashes);
  } finally {
    db.close();
  }
}

describe("shell hooks and git stash", () => {
  it("reads the stash list only for a command line that calls git stash, and never with a git process", () => {
    const base = tempDir();
    const root = identity(initRepo(join(base, "repo")));
    const shim = gitShim(base);
    const plain = shellLogged(root, "echo hi > a.txt", shim);
    // One row per tool use id: the plain command's row saved no stash list.
    expect(savedStashes(root)).toEqual([null]);
    const stash = shellLogged(root, "git stash push -u -q", shim);
    const sub = (calls: string[]) => calls.map((c) => c.split("\t")[1]!.split(" ")[0]).sort();
    // A hook process starts the pre-tool-use's status before it has read the command; the
    // post-tool-use measures the named a.txt by its stamp, without git.
    expect(sub(plain)).toEqual(["status"]);
    // With no live peer the git guard asks git nothing; the stash list itself costs no process.
    expect(sub(stash)).toEqual(["status", "status"]);
    expect(stash.filter((c) => / stash( |$)/.test(` ${c.split("\t")[1]}`))).toEqual([]);
    expect(savedStashes(root)).toEqual([JSON.stringify({ [root]: [] })]);
    const sha = g(root, "rev-parse", "refs/stash").trim();
    expect(events(root).filter((e) => e.kind === "stash.created")).toEqual([
      { kind: "stash.created", data: { repo: root, sha, message: expect.stringMatching(/^WIP on main: /) } },
    ]);
  });

  it("records an entry in the repository that `git -C DIR stash` runs in", () => {
    const base = tempDir();
    const root = identity(initRepo(join(base, "repo")));
    const other = identity(initRepo(join(base, "other")));
    writeFiles(other, { "o.txt": "o\n" });
    shell(root, "A", `git -C ${other} stash push -u -q -m elsewhere`);
    const sha = g(other, "rev-parse", "refs/stash").trim();
    expect(events(root).filter((e) => e.kind === "stash.created")).toEqual([
      { kind: "stash.created", data: { repo: other, sha, message: "On main: elsewhere" } },
    ]);
  });
});
