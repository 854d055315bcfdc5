import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { claudeWrite, denied } from "../helpers/hooks.js";
import { initRepo } from "../helpers/repo.js";
import { canMakeReadOnly, makeReadOnly, undoFaults } from "../helpers/store-faults.js";
import {
  cleanEnv,
  type Env,
  gone,
  run,
  scratch,
  serveCommand,
  startServer,
  stateDir,
  TANDEM_BIN,
  THIN,
  thinHook,
  waitFor,
} from "./support.js";

/** Issue 42 item 5: a store made read-only under a running server, `serve --stop`, and `--help`. */
const sleepers: ChildProcess[] = [];
const agent = (extra: Env = {}): Env => {
  const child = spawn("sleep", ["600"], { stdio: "ignore" });
  sleepers.push(child);
  return cleanEnv({ CLAUDE_PID: String(child.pid), ...extra });
};
/** A caller that cannot fall back to Node: its answer can only come from the server. */
const SERVER_ONLY = { TANDEM_NODE: "/nonexistent/node" };

afterEach(() => {
  // Before the servers are stopped and the scratch directories removed (immutable files cannot be).
  undoFaults();
  for (const s of sleepers.splice(0)) s.kill("SIGKILL");
});

/**
 * Read-only-ness is tested for real: as root, modes do not stop writes, so the immutable bit is
 * set instead (helpers/store-faults.ts). Where neither works the test fails and says so: a run
 * that cannot make a store read-only has not tested this.
 */
function readOnly(path: string): void {
  if (!canMakeReadOnly())
    throw new Error(
      "cannot make a file read-only here (root without chattr): run this test as a non-root user",
    );
  makeReadOnly(path);
}

async function served() {
  const repo = initRepo(join(scratch(), "repo"), { "f.txt": "committed\n", "g.txt": "g\n" });
  const server = await startServer(repo);
  const claimed = await thinHook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "f.txt"), {
    cwd: repo,
    env: agent(SERVER_ONLY),
  });
  expect(denied(claimed)).toBeNull();
  return { repo, server };
}

/** The store problem and its fix as a person's `tandem status` lists them (through the server too). */
async function statusNotice(repo: string, env: Env): Promise<{ what: string; fix: string }> {
  const r = await run(THIN, ["status"], { cwd: repo, env: cleanEnv(env) });
  const m = /✗ store: (.*); gated edits and commits are refused until it is fixed\n\s+fix: (.*)\n/.exec(
    r.stdout,
  );
  if (!m) throw new Error(`status listed no store problem:\n${r.stdout}${r.stderr}`);
  return { what: m[1]!, fix: m[2]! };
}

describe("a store made read-only under a running server", () => {
  it.each([
    ["the store file", (repo: string) => join(stateDir(repo), "state.db")],
    ["the state directory", (repo: string) => stateDir(repo)],
  ])("refuses a gated write when %s is made read-only, with the words status prints", async (_, target) => {
    const { repo, server } = await served();
    readOnly(target(repo));
    const write = await thinHook("claude-code", "pre-tool-use", claudeWrite(repo, "B", "g.txt"), {
      cwd: repo,
      env: agent(SERVER_ONLY),
    });
    const reason = denied(write);
    expect(reason).not.toBeNull();
    // The same server answered, and not through a fallback.
    expect(gone(server.pid)).toBe(false);
    const fromServer = await statusNotice(repo, SERVER_ONLY);
    const fromNode = await statusNotice(repo, { TANDEM_SERVER: "0" });
    expect(fromServer).toEqual(fromNode);
    expect(fromServer.what).toContain(`${target(repo)}`);
    expect(fromServer.what).toMatch(/state\.db is read-only \(E(ACCES|PERM|ROFS) on /);
    expect(reason).toContain(`${fromServer.what}; gated edits and commits are refused until it is fixed`);
    expect(reason).toContain(`Fix: ${fromServer.fix}`);
    expect(fromServer.fix).toContain(`chmod u+w ${target(repo)}`);
  });
});

const SERVE_FILES = ["serve.addr", "serve.tcp", "serve.hello", "serve.sock"];
const present = (repo: string) => SERVE_FILES.filter((f) => existsSync(join(stateDir(repo), f)));

describe("tandem serve --stop", () => {
  it("says it stopped the server, and leaves nothing of it", async () => {
    const { repo, server } = await served();
    const r = serveCommand(repo, "--stop");
    expect(r.stdout).toBe(`Stopped the server of ${repo} (pid ${server.pid}).\n`);
    expect(r.code).toBe(0);
    expect(present(repo)).toEqual([]);
  });

  it("says when no server was running", () => {
    const repo = initRepo(join(scratch(), "repo"));
    const r = serveCommand(repo, "--stop");
    expect(r.stdout).toBe(`No server was running for ${repo}; nothing to stop.\n`);
    expect(r.code).toBe(0);
  });

  it("fails, naming what is left and how to remove it, when the server could not clean up", async () => {
    const { repo, server } = await served();
    readOnly(stateDir(repo));
    const r = serveCommand(repo, "--stop");
    expect(gone(server.pid)).toBe(true);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `^tandem: stopped the server of .* \\(pid ${server.pid}\\), but its clean-up failed and left:\n`,
      ),
    );
    const left = present(repo);
    expect(left).toContain("serve.addr");
    for (const f of left) expect(r.stderr).toContain(`  ${join(stateDir(repo), f)}\n`);
    expect(r.stderr).toContain(`chmod u+w ${stateDir(repo)}`);
    expect(r.stderr).toContain(`rm -rf -- ${left.map((f) => join(stateDir(repo), f)).join(" ")}`);
    undoFaults();
    // As told: once the directory is writable, the command printed removes what is left.
    await waitFor("the removal", () => {
      for (const f of left) run("rm", ["-rf", "--", join(stateDir(repo), f)], { cwd: repo, env: cleanEnv() });
      return present(repo).length === 0;
    });
    expect(serveCommand(repo, "--stop").stdout).toMatch(/^No server was running/);
  });
});

/** The command words `tandem --help` lists. */
async function commandWords(cwd: string): Promise<string[]> {
  const r = await run(process.execPath, [TANDEM_BIN, "--help"], { cwd, env: cleanEnv() });
  const section = r.stdout.slice(r.stdout.indexOf("Commands:"));
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]!).filter((w) => w !== "help");
}

describe("--help", () => {
  it("starts no server and touches no store, for every command, through the thin client too", async () => {
    const repo = initRepo(join(scratch(), "repo"));
    const words = await commandWords(repo);
    expect(words).toEqual(expect.arrayContaining(["task", "release", "status", "init", "doctor", "serve"]));
    for (const argv of [
      ...words.map((w) => [w, "--help"]),
      ["task", "-h"],
      ["hook", "--help"],
      ["git-hook", "--help"],
    ]) {
      const r = await run(THIN, argv, { cwd: repo, env: cleanEnv() });
      expect(r.code, `${argv.join(" ")}: ${r.stderr}`).toBe(0);
      expect(r.stdout, argv.join(" ")).toMatch(/usage:/i);
      expect(existsSync(stateDir(repo)) ? readdirSync(stateDir(repo)) : [], argv.join(" ")).toEqual([]);
    }
  });
});
