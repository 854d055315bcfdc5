import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { patient } from "../helpers/patience.js";
import { withRegistryTls } from "../helpers/registry-tls.js";
import { g, initRepo, tempDir } from "../helpers/repo.js";

/**
 * Installs the packed tarball the ways the README's "Install" section lists. Installs run with
 * --prefer-offline --ignore-scripts (the npm cache serves the dependencies; better-sqlite3 does not
 * compile here) and get the addon this checkout already built, copied in.
 */
const REPO = fileURLToPath(new URL("../../", import.meta.url));
const ADDON = join(REPO, "node_modules/better-sqlite3/build/Release/better_sqlite3.node");
const NPM_FLAGS = ["--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund"];
let tgz = "";

function sh(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}, input?: string) {
  const res: SpawnSyncReturns<string> = spawnSync(cmd, args, {
    cwd,
    env: { ...process.env, ...env },
    input,
    encoding: "utf8",
    timeout: patient(120_000),
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

function npm(args: string[], cwd: string) {
  const res = sh("npm", [...args, ...NPM_FLAGS], cwd, withRegistryTls({}));
  expect(res.stderr.split("\n").filter((l) => /npm warn/i.test(l) && !/tarball data/.test(l))).toEqual([]);
  expect(res.code).toBe(0);
}

function giveAddon(modules: string): void {
  const dir = join(modules, "tandem/node_modules/better-sqlite3/build/Release");
  mkdirSync(dir, { recursive: true });
  copyFileSync(ADDON, join(dir, "better_sqlite3.node"));
}

/** Fires the committed SessionStart command in `clone` the way Claude Code would. */
function fireClaudeHook(clone: string, env: Record<string, string>) {
  const settings = JSON.parse(readFileSync(join(clone, ".claude/settings.json"), "utf8"));
  const command: string = settings.hooks.SessionStart[0].hooks[0].command;
  const payload = {
    session_id: "s-1",
    transcript_path: "/dev/null",
    cwd: clone,
    hook_event_name: "SessionStart",
    source: "startup",
  };
  return {
    command,
    ...sh("sh", ["-c", command], clone, { ...env, CLAUDE_PROJECT_DIR: clone }, JSON.stringify(payload)),
  };
}

/** Commits through the git hooks init installed, which need `env`'s PATH. */
function commitAndClone(repo: string, env: Record<string, string>): string {
  g(repo, "add", "-A");
  expect(
    sh("git", ["-c", "user.name=T", "-c", "user.email=t@t.invalid", "commit", "-qm", "wire"], repo, env).code,
  ).toBe(0);
  const clone = join(tempDir(), "clone");
  g(dirname(clone), "clone", "-q", repo, clone);
  return clone;
}

beforeAll(() => {
  // Not tempDir(): that is removed after each test, and both tests install this tarball.
  const out = mkdtempSync(join(tmpdir(), "tandem-pack-"));
  // dist/ is built by the global setup; the tarball must carry it and the licence.
  const res = sh("npm", ["pack", "--ignore-scripts", "--pack-destination", out], REPO, withRegistryTls({}));
  expect(res.code).toBe(0);
  tgz = join(out, res.stdout.trim().split("\n").at(-1)!);
  const list = sh("tar", ["-tzf", tgz], out).stdout;
  expect(list).toContain("package/LICENSE");
  expect(list).toContain("package/dist/tandem.cjs");
  // The browser board's page (`tandem ui`), built at pack time: its diff renderer is a devDependency.
  for (const f of ["app.js", "app.css", "diff.js", "diff.css"])
    expect(list).toContain(`package/dist/ui/${f}`);
});

afterAll(() => rmSync(dirname(tgz), { recursive: true, force: true }));

describe("installing the packed tarball", () => {
  it("globally into a prefix: tandem from PATH, and the committed wiring works in a clone", () => {
    const prefix = tempDir();
    npm(["install", "-g", "--prefix", prefix, tgz], prefix);
    giveAddon(join(prefix, "lib/node_modules"));
    const path = `${join(prefix, "bin")}:${dirname(process.execPath)}`;
    // A person's global install is on the PATH their login shell sets up, as agents' shells start.
    const home = tempDir();
    writeFileSync(join(home, ".profile"), `PATH="${path}:$PATH"\n`);
    const env = { PATH: `${path}:/usr/bin:/bin`, HOME: home };
    expect(sh("tandem", ["--version"], prefix, env).stdout).toMatch(/0\.\d+\.\d+/);
    const repo = initRepo(join(tempDir(), "repo"));
    const init = sh("tandem", ["init", "--clients", "claude-code"], repo, env);
    expect(init.code).toBe(0);
    expect(init.stdout).not.toContain("Warning");
    const clone = commitAndClone(repo, env);
    const fired = fireClaudeHook(clone, env);
    expect(fired.command).toBe("tandem hook claude-code session-start");
    expect(fired).toMatchObject({ code: 0, stderr: "" });
    expect(fired.stdout).toContain("additionalContext");
    expect(sh("tandem", ["init", "--check"], clone, env).stdout).toContain(".git/hooks/pre-commit: missing");
    // The same install with its bin only in ~/.bashrc: a login shell (Codex's) finds no tandem,
    // and still commits through the hooks (decision 0049).
    const bashrc = tempDir();
    writeFileSync(join(bashrc, ".profile"), "export LANG=C\n");
    writeFileSync(join(bashrc, ".bashrc"), `PATH="${path}:$PATH"\n`);
    const nvmLike = { ...env, HOME: bashrc };
    const other = initRepo(join(tempDir(), "other"));
    expect(sh("bash", ["-lc", "tandem --version"], other, nvmLike).code).toBe(127);
    expect(sh("tandem", ["init", "--clients", "claude-code"], other, nvmLike).code).toBe(0);
    writeFileSync(join(other, "a.txt"), "a\n");
    g(other, "add", "a.txt");
    const login = sh(
      "bash",
      ["-lc", "git -c user.name=T -c user.email=t@t.invalid commit -qm a"],
      other,
      nvmLike,
    );
    expect(login).toMatchObject({ code: 0, stderr: "" });
    expect(g(other, "log", "-1", "--format=%s").trim()).toBe("a");
  });

  it("as a devDependency: hooks call the project's node_modules/.bin/tandem, in a clone too", () => {
    const project = initRepo(join(tempDir(), "project"), { ".gitignore": "node_modules/\n" });
    writeFileSync(join(project, "package.json"), '{ "name": "app", "private": true }\n');
    npm(["install", "-D", tgz], project);
    giveAddon(join(project, "node_modules"));
    const env = { PATH: `${dirname(process.execPath)}:/usr/bin:/bin` };
    expect(sh("npx", ["tandem", "--version"], project, env).code).toBe(0);
    expect(sh("npx", ["tandem", "init", "--clients", "claude-code"], project, env).code).toBe(0);
    const clone = commitAndClone(project, env);
    npm(["install"], clone);
    giveAddon(join(clone, "node_modules"));
    const fired = fireClaudeHook(clone, env);
    expect(fired.command).toBe(
      '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/tandem hook claude-code session-start',
    );
    expect(fired).toMatchObject({ code: 0, stderr: "" });
    expect(fired.stdout).toContain("additionalContext");
    // That hook started the project's resident server; the next one is answered by it, alike.
    const bin = join(clone, "node_modules", ".bin", "tandem");
    const serving = () => sh(bin, ["serve", "--status"], clone, env).code === 0;
    for (let i = 0; i < 100 && !serving(); i++)
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    expect(serving()).toBe(true);
    const again = fireClaudeHook(clone, env);
    expect(again).toMatchObject({ code: 0, stderr: "" });
    expect(again.stdout).toContain("additionalContext");
    expect(sh(bin, ["serve", "--stop"], clone, env).code).toBe(0);
  });
});
