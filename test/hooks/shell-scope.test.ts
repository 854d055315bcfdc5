/**
 * A shell command the reader read fully is measured by the files it names (a stat each); anything
 * else by the whole tree's dirty set. Both must record the same facts.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { raw } from "../../src/store/handle.js";
import { events, shell } from "../finalization/fixture.js";
import { claudeBash, denied, fakeAgent, hook } from "../helpers/hooks.js";
import { initRepo, tempDir, writeFiles } from "../helpers/repo.js";

function snapshots(root: string): { scope: string; dirty: Record<string, string> }[] {
  const db = openDb(join(root, ".git", "tandem"));
  try {
    const rows = raw(db)
      .prepare("SELECT scope, dirty FROM shell_snapshots WHERE tool_use_id != 'turn:' ORDER BY started_at")
      .all() as { scope: string; dirty: string }[];
    return rows.map((r) => ({ scope: r.scope, dirty: JSON.parse(r.dirty) }));
  } finally {
    db.close();
  }
}

const touched = (root: string) =>
  events(root)
    .filter((e) => e.kind === "files.touched")
    .map((e) => e.data as { paths: string[]; unattributed: string[] });

describe("measuring a shell command", () => {
  it("stamps the file a redirect names and records it as touched", () => {
    const root = initRepo(join(tempDir(), "repo"), { "README.md": "hi\n" });
    shell(root, "A", "echo hi > 'a b.txt'");
    expect(snapshots(root)).toEqual([{ scope: "named", dirty: { "a b.txt": "missing" } }]);
    expect(touched(root)).toEqual([expect.objectContaining({ paths: ["a b.txt"], unattributed: [] })]);
  });

  it("saves an empty snapshot for a read-only command and records nothing", () => {
    const root = initRepo(join(tempDir(), "repo"), { "README.md": "hi\n" });
    writeFiles(root, { "dirty.txt": "untracked\n" });
    shell(root, "A", "cat README.md | head -n 1 && ls -la");
    expect(snapshots(root)).toEqual([{ scope: "named", dirty: {} }]);
    expect(touched(root)).toEqual([]);
  });

  it.each<{
    behaviour: string;
    files: Record<string, string>;
    command: string;
    scope: string;
    paths: string[];
  }>([
    {
      behaviour: "lists the files in a directory the command made, as the whole tree's status would",
      files: { "src/a.ts": "a\n", "src/b.ts": "b\n" },
      command: "cp -r src copy",
      scope: "named",
      paths: ["copy/a.ts", "copy/b.ts"],
    },
    {
      behaviour: "reads the whole tree for a command whose writes it cannot name",
      files: { "README.md": "hi\n" },
      command: `python3 -c "open('p.txt','w').write('p')"`,
      scope: "tree",
      paths: ["p.txt"],
    },
    {
      behaviour: "reads the whole tree over an existing directory, and sees the files removed in it",
      files: { "old/a.txt": "a\n", "old/b.txt": "b\n" },
      command: "rm -r old",
      scope: "tree",
      paths: ["old/a.txt", "old/b.txt"],
    },
  ])("$behaviour", ({ files, command, scope, paths }) => {
    const root = initRepo(join(tempDir(), "repo"), files);
    shell(root, "A", command);
    expect(snapshots(root)[0]!.scope).toBe(scope);
    expect(touched(root)).toEqual([expect.objectContaining({ paths })]);
  });

  it("keeps a live peer's bytes before a redirect over a file the peer's command wrote", () => {
    const root = initRepo(join(tempDir(), "repo"), { "README.md": "hi\n" });
    const a = fakeAgent();
    const b = fakeAgent();
    const run = (session: string, env: Record<string, string>, command: string) => {
      const pre = hook("claude-code", "pre-tool-use", claudeBash(root, session, command), { cwd: root, env });
      if (denied(pre) !== null) return denied(pre);
      execFileSync("bash", ["-c", command], { cwd: root });
      hook("claude-code", "post-tool-use", claudeBash(root, session, command, "PostToolUse"), {
        cwd: root,
        env,
      });
      return null;
    };
    expect(run("A", a, `python3 -c "open('n.txt','w').write('A was here')"`)).toBeNull();
    // A touched n.txt without claiming it: B may write it, but over the whole tree, A's bytes kept.
    expect(run("B", b, "echo B > n.txt")).toBeNull();
    expect(snapshots(root).at(-1)!.scope).toBe("tree");
    const kinds = events(root).map((e) => e.kind);
    expect(kinds).toContain("work.preserved");
    expect(kinds).toContain("work.clobbered");
  });

  it("does not wait for a dirty set it started reading and then did not need", () => {
    const base = tempDir();
    const root = initRepo(join(base, "repo"), { "README.md": "hi\n" });
    // A git whose `status` never answers: a hook that waited for it would never end.
    const real = spawnSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).stdout.trim();
    const bin = join(base, "slow-git");
    mkdirSync(bin);
    writeFileSync(
      join(bin, "git"),
      `#!/bin/sh\ncase $1 in status) exec sleep 120 ;; esac\nexec "${real}" "$@"\n`,
    );
    chmodSync(join(bin, "git"), 0o755);
    const env = { PATH: `${bin}:${process.env.PATH ?? ""}` };
    const pre = hook("claude-code", "pre-tool-use", claudeBash(root, "A", "echo hi > a.txt"), {
      cwd: root,
      env,
    });
    expect(pre.code).toBe(0);
    expect(denied(pre)).toBeNull();
    expect(snapshots(root)).toEqual([{ scope: "named", dirty: { "a.txt": "missing" } }]);
  });
});
