import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveRoot, stateDirOf } from "../../src/config/root.js";
import { TandemError } from "../../src/errors.js";
import { g, initRepo, tempDir, writeFiles } from "../helpers/repo.js";

const noEnv = {};

describe("resolveRoot", () => {
  it("finds the repository top from a cwd deep inside the tree", () => {
    const repo = initRepo(join(tempDir(), "repo"));
    const deep = join(repo, "a", "b", "c");
    mkdirSync(deep, { recursive: true });
    const r = resolveRoot({ cwd: deep, env: noEnv });
    expect(r).toMatchObject({ root: repo, source: "git" });
    expect(stateDirOf(r)).toBe(join(repo, ".git", "tandem"));
  });

  it("lets the superproject win over its submodule", () => {
    const base = tempDir();
    const lib = initRepo(join(base, "lib"));
    const app = initRepo(join(base, "app"));
    g(app, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "vendor/lib");
    g(app, "commit", "-qm", "add submodule");
    const inside = join(app, "vendor", "lib");
    const r = resolveRoot({ cwd: inside, env: noEnv });
    expect(r.root).toBe(app);
    expect(stateDirOf(r)).toBe(join(app, ".git", "tandem"));
  });

  it("uses the outermost working tree for a repository nested inside another", () => {
    const outer = initRepo(join(tempDir(), "outer"));
    const inner = initRepo(join(outer, "nested"));
    expect(resolveRoot({ cwd: inner, env: noEnv }).root).toBe(outer);
  });

  it("gives a linked worktree its own root but the main repository's state dir", () => {
    const base = tempDir();
    const repo = initRepo(join(base, "repo"));
    const wt = join(base, "wt");
    g(repo, "worktree", "add", "-q", "-b", "side", wt);
    const r = resolveRoot({ cwd: join(wt), env: noEnv });
    expect(r.root).toBe(wt);
    expect(r.repo?.linked).toBe(true);
    expect(stateDirOf(r)).toBe(stateDirOf(resolveRoot({ cwd: repo, env: noEnv })));
  });

  it("does not climb out of a child worktree kept under the repository's .git directory", () => {
    const repo = initRepo(join(tempDir(), "repo"));
    const child = join(repo, ".git", "tandem", "worktrees", "sub1");
    g(repo, "worktree", "add", "-q", "-b", "tandem/sub/sub1", child);
    writeFiles(repo, { ".tandem/config.jsonc": "{}" });
    const r = resolveRoot({ cwd: child, env: noEnv });
    expect(r.root).toBe(child);
    expect(stateDirOf(r)).toBe(join(repo, ".git", "tandem"));
  });

  it("prefers the nearest ancestor holding .tandem/config.jsonc", () => {
    const repo = initRepo(join(tempDir(), "repo"));
    writeFiles(repo, { "packages/web/.tandem/config.jsonc": "{}", "packages/web/src/x.ts": "" });
    const r = resolveRoot({ cwd: join(repo, "packages", "web", "src"), env: noEnv });
    expect(r).toMatchObject({ root: join(repo, "packages", "web"), source: "config" });
    expect(r.repo?.top).toBe(repo);
  });

  it("honours --root, then TANDEM_ROOT, and CLAUDE_PROJECT_DIR only for hooks", () => {
    const base = tempDir();
    const a = initRepo(join(base, "a"));
    const b = initRepo(join(base, "b"));
    const c = initRepo(join(base, "c"));
    expect(resolveRoot({ cwd: a, flag: b, env: { TANDEM_ROOT: c } }).root).toBe(b);
    expect(resolveRoot({ cwd: a, env: { TANDEM_ROOT: c } }).root).toBe(c);
    expect(resolveRoot({ cwd: a, env: { CLAUDE_PROJECT_DIR: b }, hook: true }).root).toBe(b);
    expect(resolveRoot({ cwd: a, env: { CLAUDE_PROJECT_DIR: b } }).root).toBe(a);
  });

  it("resolves a symlinked cwd to its physical repository", () => {
    const base = tempDir();
    const repo = initRepo(join(base, "repo"));
    symlinkSync(repo, join(base, "link"));
    expect(resolveRoot({ cwd: join(base, "link"), env: noEnv }).root).toBe(repo);
  });

  it("refuses clearly outside any repository", () => {
    const dir = tempDir();
    expect(() => resolveRoot({ cwd: dir, env: noEnv })).toThrow(TandemError);
    expect(() => resolveRoot({ cwd: dir, env: noEnv })).toThrow(/not inside a Git repository.*--root/);
  });

  it("names a --root that does not exist", () => {
    const dir = tempDir();
    expect(() => resolveRoot({ cwd: dir, flag: "missing", env: noEnv })).toThrow(
      /--root .*missing does not exist/,
    );
  });

  it("has no state dir for a configured root outside Git", () => {
    const dir = tempDir();
    writeFiles(dir, { ".tandem/config.jsonc": "{}" });
    const r = resolveRoot({ cwd: dir, env: noEnv });
    expect(r.repo).toBeNull();
    expect(() => stateDirOf(r)).toThrow(/not inside a Git repository/);
  });
});
