import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { shellQuote } from "../../src/core/shell/quote.js";
import { commitFinding } from "../../src/doctor/commit-check.js";
import { CANNOT_START } from "../../src/wiring/git-hooks.js";
import { THIN_BIN, tandem } from "../helpers/cli.js";
import { g, initRepo, tempDir } from "../helpers/repo.js";

/**
 * A prefix install (its `bin/tandem` npm's symlink to the thin client) that a person's terminal
 * finds through ~/.bashrc, and a login shell does not: the HOME's ~/.profile sets up no PATH of
 * Tandem's, and /etc/profile resets PATH. Codex runs every command, `git commit` too, that way.
 */
function prefixInstall() {
  const base = tempDir();
  const bin = join(base, "prefix", "bin");
  const home = join(base, "home");
  mkdirSync(bin, { recursive: true });
  mkdirSync(home);
  symlinkSync(THIN_BIN, join(bin, "tandem"));
  writeFileSync(join(home, ".profile"), "export LANG=C\n");
  writeFileSync(join(home, ".bashrc"), `PATH=${shellQuote(bin)}:"$PATH"\n`);
  const env = { PATH: `${bin}:/usr/bin:/bin`, HOME: home };
  return { base, repo: initRepo(join(base, "repo")), env };
}

type Env = Record<string, string>;
const IDENTITY = "git -c user.name=T -c user.email=t@t.invalid";

/** A commit as an agent's shell tool makes it (`bash -lc`) or as a person's terminal does (`sh -c`). */
function commit(repo: string, env: Env, how: "bash -lc" | "sh -c", file: string) {
  writeFileSync(join(repo, file), `${file}\n`);
  g(repo, "add", "--", file);
  const [shell, flag] = how.split(" ") as [string, string];
  const r = spawnSync(shell, [flag, `${IDENTITY} commit -qm ${file}`], {
    cwd: repo,
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  const committed = g(repo, "log", "-1", "--format=%s").trim() === file;
  if (!committed) g(repo, "reset", "-q", "--", file);
  return { code: r.status, stderr: r.stderr, committed };
}

function doctorCommit(repo: string, env: Env) {
  const r = tandem(["doctor", "--json"], { cwd: repo, env });
  const checks = JSON.parse(r.stdout).checks as {
    check: string;
    level: string;
    detail: string;
    fix?: string;
  }[];
  return checks.find((c) => c.check === "git commit");
}

/** The block every `init` wrote before decision 0049: bare `tandem`, whatever agents were told. */
function oldHooks(repo: string): void {
  for (const name of ["pre-commit", "post-commit", "post-checkout"]) {
    const tail = name === "pre-commit" ? "|| exit $?" : "|| true";
    const file = join(repo, ".git/hooks", name);
    const text = readFileSync(file, "utf8").replace(
      /# >>> tandem >>>[\s\S]*# <<< tandem <<</,
      `# >>> tandem >>>\ntandem git-hook ${name} "$@" ${tail}\n# <<< tandem <<<`,
    );
    writeFileSync(file, text);
  }
}

describe("a commit from an agent's login shell, with Tandem where only a terminal finds it", () => {
  it("failed with the bare `tandem` hooks (doctor said so), and commits from every shell after init", () => {
    const { repo, env } = prefixInstall();
    expect(spawnSync("bash", ["-lc", "tandem --version"], { cwd: repo, env }).status).toBe(127);
    expect(tandem(["init", "--clients", "claude-code"], { cwd: repo, env }).code).toBe(0);
    g(repo, "add", "-A");
    g(repo, "commit", "-qm", "wire");

    oldHooks(repo);
    const before = commit(repo, env, "bash -lc", "a.txt");
    expect(before).toMatchObject({ code: 1, committed: false });
    expect(before.stderr).toMatch(/tandem: not found/);
    const broken = doctorCommit(repo, env);
    expect(broken).toMatchObject({ level: "problem" });
    expect(broken?.detail).toContain("cannot start Tandem in an agent's login shell");
    expect(broken?.fix).toMatch(/^run `tandem init`/);

    expect(tandem(["init"], { cwd: repo, env }).code).toBe(0);
    const launcher = join(repo, ".git/tandem/bin/tandem");
    expect(readFileSync(join(repo, ".git/hooks/pre-commit"), "utf8")).toContain(
      `tandem_rc=0; ${launcher} git-hook pre-commit "$@" || tandem_rc=$?`,
    );
    expect(commit(repo, env, "bash -lc", "b.txt")).toMatchObject({ code: 0, stderr: "", committed: true });
    expect(commit(repo, env, "sh -c", "c.txt")).toMatchObject({ code: 0, stderr: "", committed: true });
    expect(doctorCommit(repo, env)).toMatchObject({ level: "ok" });
  });

  it("stops the commit with the fix when no command starts Tandem, and doctor names it", () => {
    const { base, repo, env } = prefixInstall();
    tandem(["init", "--clients", "claude-code"], { cwd: repo, env });
    const moved = { ...env, PATH: "/usr/bin:/bin" }; // Tandem uninstalled, the launcher's target gone
    writeFileSync(
      join(repo, ".git/tandem/bin/tandem"),
      `#!/bin/sh\nexec ${shellQuote(join(base, "gone"))} "$@"\n`,
    );
    const res = commit(repo, moved, "sh -c", "a.txt");
    expect(res).toMatchObject({ code: 1, committed: false });
    expect(res.stderr).toContain(`tandem: commit stopped: ${CANNOT_START}`);
    expect(res.stderr).toContain(`run \`cd ${shellQuote(repo)} && tandem init\``);
    const found = doctorCommit(repo, moved);
    expect(found).toMatchObject({ level: "problem" });
    expect(found?.detail).toContain("no command in its Tandem block starts Tandem there");
  });

  it("doctor's trial commit changes nothing: no commit, same index, status and COMMIT_EDITMSG", () => {
    const { repo, env } = prefixInstall();
    tandem(["init", "--clients", "claude-code"], { cwd: repo, env });
    writeFileSync(join(repo, "staged.txt"), "mine\n");
    g(repo, "add", "--", "staged.txt");
    writeFileSync(join(repo, ".git/COMMIT_EDITMSG"), "the person's last message\n");
    const gitDir = join(repo, ".git");
    const look = () => ({
      head: g(repo, "rev-parse", "HEAD"),
      log: g(repo, "reflog", "--format=%H %gs"),
      status: g(repo, "status", "--porcelain=v1", "-z", "--untracked-files=all"),
      index: readFileSync(join(gitDir, "index")).toString("hex"),
      message: readFileSync(join(gitDir, "COMMIT_EDITMSG"), "utf8"),
      messageTime: statSync(join(gitDir, "COMMIT_EDITMSG")).mtimeMs,
      entries: readdirSync(gitDir).filter((e) => e !== "tandem"),
    });
    const before = look();
    expect(doctorCommit(repo, env)).toMatchObject({ level: "ok" });
    expect(look()).toEqual(before);
  });

  it("init --root from another project records that project's Tandem, and commits work in the repository", () => {
    const base = tempDir();
    const tools = join(base, "tools");
    const bin = join(tools, "node_modules", ".bin");
    mkdirSync(bin, { recursive: true });
    symlinkSync(THIN_BIN, join(bin, "tandem"));
    const repo = initRepo(join(base, "repo"));
    const home = join(base, "home");
    mkdirSync(home);
    // As `npx tandem init --root <repo>` runs in tools/: npx puts its node_modules/.bin first on PATH.
    const npx = { PATH: `${bin}:/usr/bin:/bin`, HOME: home };
    const init = tandem(["init", "--root", repo, "--clients", "claude-code"], { cwd: tools, env: npx });
    expect(init.code).toBe(0);
    expect(init.stdout).toContain("Warning: the hooks call absolute paths on this machine");
    const config = readFileSync(join(repo, ".tandem/config.jsonc"), "utf8");
    expect(config).toContain(`"command":${JSON.stringify(join(bin, "tandem"))}`);
    const terminal = { PATH: "/usr/bin:/bin", HOME: home }; // npx is done: its bin is off PATH
    expect(commit(repo, terminal, "sh -c", "a.txt")).toMatchObject({ code: 0, stderr: "", committed: true });
    expect(commit(repo, terminal, "bash -lc", "b.txt")).toMatchObject({
      code: 0,
      stderr: "",
      committed: true,
    });
    expect(doctorCommit(repo, terminal)).toMatchObject({ level: "ok" });
  });
});

describe("doctor's reading of the trial commit", () => {
  const M = "/tmp/x/no-message";
  const H = "/r/.git/hooks/pre-commit";
  it.each<[string, { status: number | null; stderr: string; error?: string }, string, RegExp]>([
    [
      "git reached the message file: pre-commit passed",
      { status: 128, stderr: `fatal: could not read log file '${M}': No such file or directory\n` },
      "ok",
      /runs the pre-commit hook, which starts Tandem/,
    ],
    [
      "the same in another language: only the path is matched",
      { status: 128, stderr: `Fehler: konnte Log-Datei '${M}' nicht lesen\n` },
      "ok",
      /starts Tandem/,
    ],
    [
      "a hook from before decision 0049: sh's not found",
      { status: 1, stderr: ".git/hooks/pre-commit: 4: tandem: not found\n" },
      "problem",
      /cannot start Tandem in an agent's login shell \(\.git\/hooks\/pre-commit: 4: tandem: not found\)/,
    ],
    [
      "the block's own message",
      { status: 1, stderr: `x: not found\ntandem: commit stopped: ${CANNOT_START} (…)\n` },
      "problem",
      /no command in its Tandem block starts Tandem there/,
    ],
    [
      "something else stops a commit with nothing staged",
      { status: 1, stderr: "lint failed\n" },
      "problem",
      /with nothing staged is stopped by \/r\/\.git\/hooks\/pre-commit \(lint failed\)/,
    ],
    [
      "no shell to run it in",
      { status: null, stderr: "", error: "spawnSync bash ENOENT" },
      "problem",
      /ENOENT/,
    ],
  ])("%s", (_what, run, level, detail) => {
    const f = commitFinding({ status: run.status, stderr: run.stderr, error: run.error ?? null }, M, H);
    expect(f.level).toBe(level);
    expect(f.detail).toMatch(detail);
    if (level === "problem") expect(f.fix).toBeTruthy();
  });
});
