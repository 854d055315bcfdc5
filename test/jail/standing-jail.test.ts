/**
 * A session's standing jail (docs/decisions/0079), as a non-root user: the first jailed command of
 * a session starts a holder whose namespace later commands enter with nsenter; the hook keeps its
 * binds in step with the claims (a peer's new file, a peer's save by rename, a peer that ended) and
 * starts a new holder when the old one is gone. Driven by the real built pre-tool hook with
 * recorded Claude Code payloads; each command runs as Claude would run it (`bash -c`).
 */
import { type SpawnSyncReturns, spawn, spawnSync } from "node:child_process";
import { chmodSync, cpSync, readdirSync, readFileSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { procInfo } from "../../src/sessions/proc.js";
import { patient } from "../helpers/patience.js";
import { initRepo } from "../helpers/repo.js";
import { asRoot, asUser, DIST, endHolders, fileTempDirs, jailEnv, jailUser, USER } from "./support.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/claude-code/bash-PreToolUse.json", import.meta.url));

let home: string;
let install: string;
let repo: string;
const agents: ReturnType<typeof spawn>[] = [];
const dirs = fileTempDirs();

function run(argv: string[], extra: NodeJS.ProcessEnv = {}, input = ""): SpawnSyncReturns<string> {
  const [file, ...args] = asUser(argv);
  return spawnSync(file!, args, {
    cwd: repo,
    env: jailEnv(home, extra),
    input,
    encoding: "utf8",
    timeout: patient(60_000),
  });
}

function agent(): ReturnType<typeof spawn> {
  const [file, ...args] = asRoot ? ["runuser", "-u", USER, "--", "sleep", "600"] : ["sleep", "600"];
  const child = spawn(file!, args, { stdio: "ignore" });
  agents.push(child);
  return child;
}

function hook(event: string, session: string, pid: number, fields: object): string {
  const recorded = JSON.parse(readFileSync(FIXTURE, "utf8")) as Record<string, unknown>;
  const payload = JSON.stringify({ ...recorded, session_id: session, cwd: repo, ...fields });
  const argv = [process.execPath, join(install, "tandem.cjs"), "hook", "claude-code", event];
  const r = run(argv, { CLAUDE_PID: String(pid), TANDEM_GUARD: "kernel" }, payload);
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

/** A peer takes `file` with a Write and leaves uncommitted bytes in it. */
function peerWrites(session: string, pid: number, file: string, text: string): void {
  const out = hook("pre-tool-use", session, pid, {
    tool_name: "Write",
    tool_input: { file_path: join(repo, file), content: text },
  });
  expect(out).not.toMatch(/"deny"/);
  expect(run(["sh", "-c", `printf '%s' '${text}' > '${file}'`]).status).toBe(0);
}

let self: number;

/** A write the shell reader cannot read (an interpreter's open): only the kernel stops it. */
const overwrite = (file: string, text: string) => `python3 -c 'open("${file}", "w").write("${text}")'`;

/** `command` as the self session's hook rewrote it, run as Claude would run it. */
function jailed(command: string, cwd = repo): SpawnSyncReturns<string> {
  const out = hook("pre-tool-use", "self-session", self, { tool_name: "Bash", tool_input: { command } });
  const rewritten = (JSON.parse(out) as { hookSpecificOutput?: { updatedInput?: { command?: string } } })
    .hookSpecificOutput?.updatedInput?.command;
  expect(rewritten, out).toMatch(/nsenter/);
  const [file, ...args] = asUser(["bash", "-c", rewritten!]);
  return spawnSync(file!, args, { cwd, env: jailEnv(home), encoding: "utf8", timeout: patient(60_000) });
}

function holder(): { pid: number; agent: number } {
  const dir = join(repo, ".git/tandem/jail");
  const found = readdirSync(dir).filter((f) => f.endsWith(".holder"));
  expect(found).toHaveLength(1);
  return JSON.parse(readFileSync(join(dir, found[0]!), "utf8")) as { pid: number; agent: number };
}

/** Running, and not a zombie waiting to be collected (procInfo reads its state). */
const alive = (pid: number): boolean => procInfo(pid) !== null;

beforeAll(() => {
  home = jailUser().home;
  install = dirs.make("tandem-standing-install-");
  cpSync(DIST, install, { recursive: true });
  chmodSync(install, 0o755);
  symlinkSync(realpathSync(join(DIST, "..", "node_modules")), join(install, "node_modules"));
  repo = initRepo(dirs.make("tandem-standing-repo-"), {
    "README.md": "hello\n",
    "mine.txt": "mine\n",
    "sub/deep.txt": "deep\n",
  });
  if (asRoot) expect(spawnSync("chown", ["-R", USER, repo]).status).toBe(0);
  peerWrites("peer-a", agent().pid!, "a.txt", "peer a");
  self = agent().pid!;
});

afterAll(() => {
  for (const a of agents) a.kill();
  endHolders(repo);
  dirs.removeAll();
});

describe("a session's standing jail (as a non-root user)", () => {
  it("one holder serves the session's commands: a peer's file is read-only, its own writes, output, exit code and directory pass", () => {
    const first = jailed(overwrite("a.txt", "lost"));
    expect(first.stderr).toMatch(/Read-only file system/);
    const pid = holder().pid;
    const second = jailed("printf mine2 > ../mine.txt && pwd && exit 7", join(repo, "sub"));
    expect(second.status).toBe(7);
    expect(second.stdout.trim()).toBe(realpathSync(join(repo, "sub")));
    expect(holder().pid).toBe(pid);
    expect(readFileSync(join(repo, "a.txt"), "utf8")).toBe("peer a");
    expect(readFileSync(join(repo, "mine.txt"), "utf8")).toBe("mine2");
  });

  it("an entered command has no capabilities: it cannot undo the binds", () => {
    const r = jailed(`grep CapEff /proc/self/status; umount -l a.txt; ${overwrite("a.txt", "lost")}`);
    expect(r.stdout).toMatch(/CapEff:\s+0+\n/);
    expect(r.stderr).toMatch(/Read-only file system/);
    expect(readFileSync(join(repo, "a.txt"), "utf8")).toBe("peer a");
  });

  it("a peer's new file is read-only in the next command, from a holder made for the new plan", () => {
    jailed("true");
    const pid = holder().pid;
    peerWrites("peer-b", agent().pid!, "b.txt", "peer b");
    const r = jailed(overwrite("b.txt", "lost"));
    expect(r.status).not.toBe(0);
    expect(readFileSync(join(repo, "b.txt"), "utf8")).toBe("peer b");
    expect(holder().pid).not.toBe(pid);
    expect(alive(pid), "the old holder was not ended").toBe(false);
  });

  it("a peer's save by rename is protected again in the next command", () => {
    jailed("true");
    expect(run(["sh", "-c", "printf 'peer a v2' > a.tmp && mv -f a.tmp a.txt"]).status).toBe(0);
    const r = jailed(overwrite("a.txt", "lost"));
    expect(r.stderr).toMatch(/Read-only file system/);
    expect(readFileSync(join(repo, "a.txt"), "utf8")).toBe("peer a v2");
  });

  it("a peer that ended leaves its file writable again", () => {
    const c = agent();
    peerWrites("peer-c", c.pid!, "c.txt", "peer c");
    expect(jailed(overwrite("c.txt", "x")).status).not.toBe(0);
    hook("session-end", "peer-c", c.pid!, { hook_event_name: "SessionEnd", reason: "exit" });
    c.kill();
    const r = jailed(overwrite("c.txt", "adopted"));
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(repo, "c.txt"), "utf8")).toBe("adopted");
  });

  it("a killed holder is replaced at the next command, which is still jailed", async () => {
    jailed("true");
    const old = holder().pid;
    process.kill(old, "SIGKILL");
    // A signal lands a moment after kill() returns.
    await vi.waitFor(() => expect(alive(old), "the holder is still running").toBe(false), {
      timeout: patient(10_000),
      interval: 20,
    });
    const r = jailed(overwrite("a.txt", "lost"));
    expect(r.stderr).toMatch(/Read-only file system/);
    expect(holder().pid).not.toBe(old);
  });

  it("the holder ends with its agent", async () => {
    const d = agent();
    const out = hook("pre-tool-use", "short-session", d.pid!, {
      tool_name: "Bash",
      tool_input: { command: "true" },
    });
    expect(out).toMatch(/nsenter/);
    const dir = join(repo, ".git/tandem/jail");
    const records = readdirSync(dir)
      .filter((f) => f.endsWith(".holder"))
      .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as { pid: number; agent: number });
    const mine = records.find((r) => r.agent === d.pid);
    expect(mine).toBeDefined();
    expect(alive(mine!.pid)).toBe(true);
    d.kill();
    // The holder asks after its agent about once a second (tail --pid).
    await vi.waitFor(() => expect(alive(mine!.pid), "the holder outlived its agent").toBe(false), {
      timeout: patient(20_000),
      interval: 100,
    });
  });
});
