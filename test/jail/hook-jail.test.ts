/**
 * The kernel guard reached through Claude Code's pre-tool hook (docs/decisions/0056), as a
 * non-root user: with `guard: "kernel"`, the real built hook answers a recorded Bash payload with
 * `updatedInput`; running that command as Claude would (`bash -c`) cannot write a live peer's file
 * or Tandem's state, while the session's own writes, output and exit code pass through. Never
 * skipped: where the kernel will not jail, these tests fail and say why.
 */
import { type SpawnSyncReturns, spawn, spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, readdirSync, readFileSync, realpathSync, symlinkSync } from "node:fs";
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
const tempDir = dirs.make;

function run(argv: string[], extra: NodeJS.ProcessEnv = {}, input = ""): SpawnSyncReturns<string> {
  const env = jailEnv(home, extra);
  const [file, ...args] = asUser(argv);
  return spawnSync(file!, args, { cwd: repo, env, input, encoding: "utf8", timeout: patient(60_000) });
}

/** A live agent process for a session (the hooks read CLAUDE_PID), kept for the whole file. */
function agentPid(): number {
  const [file, ...args] = asRoot ? ["runuser", "-u", USER, "--", "sleep", "600"] : ["sleep", "600"];
  const child = spawn(file!, args, { stdio: "ignore" });
  agents.push(child);
  return child.pid!;
}

/** The recorded Claude Code payload, for this repository, `session` and `input`. */
function payload(session: string, tool: string, input: Record<string, unknown>): string {
  const recorded = JSON.parse(readFileSync(FIXTURE, "utf8")) as Record<string, unknown>;
  return JSON.stringify({ ...recorded, session_id: session, cwd: repo, tool_name: tool, tool_input: input });
}

/** The real built pre-tool hook's answer. */
function preTool(
  session: string,
  pid: number,
  tool: string,
  input: object,
  env: NodeJS.ProcessEnv = {},
): HookAnswer {
  const argv = [process.execPath, join(install, "tandem.cjs"), "hook", "claude-code", "pre-tool-use"];
  const r = run(argv, { CLAUDE_PID: String(pid), ...env }, payload(session, tool, { ...input }));
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.trim() === "" ? {} : (JSON.parse(r.stdout) as HookAnswer);
}

interface HookAnswer {
  hookSpecificOutput?: {
    permissionDecision?: string;
    permissionDecisionReason?: string;
    updatedInput?: { command: string; description?: string };
  };
}

let selfPid: number;
const KERNEL = { TANDEM_GUARD: "kernel" };

/** The record of the session's standing jail (decision 0079). */
function holderFile(): string {
  const dir = join(repo, ".git/tandem/jail");
  const found = readdirSync(dir).filter((f) => f.endsWith(".holder"));
  expect(found).toHaveLength(1);
  return join(dir, found[0]!);
}

/** The command Claude would run for `command`, as the hook rewrote it. */
function rewritten(command: string): string {
  const out = preTool("self-session", selfPid, "Bash", { command, description: "a test" }, KERNEL);
  const updated = out.hookSpecificOutput?.updatedInput;
  expect(updated?.description, JSON.stringify(out)).toBe("a test");
  return updated?.command ?? "";
}

beforeAll(() => {
  home = jailUser().home;
  install = tempDir("tandem-hookjail-install-");
  cpSync(DIST, install, { recursive: true });
  chmodSync(install, 0o755);
  symlinkSync(realpathSync(join(DIST, "..", "node_modules")), join(install, "node_modules"));
  repo = initRepo(tempDir("tandem-hookjail-repo-"), { "README.md": "hello\n", "mine.txt": "mine\n" });
  if (asRoot) expect(spawnSync("chown", ["-R", USER, repo]).status).toBe(0);
  const peer = preTool("peer-session", agentPid(), "Write", {
    file_path: join(repo, "peer.txt"),
    content: "x",
  });
  expect(JSON.stringify(peer)).not.toMatch(/"deny"/);
  expect(run(["sh", "-c", 'printf "peer work\\n" > peer.txt']).status).toBe(0);
  selfPid = agentPid();
});

afterAll(() => {
  for (const a of agents) a.kill();
  endHolders(repo);
  dirs.removeAll();
});

describe('guard: "kernel" through Claude Code\'s pre-tool hook (as a non-root user)', () => {
  it("leaves the command alone when the guard is the reader (the default)", () => {
    const out = preTool("self-session", selfPid, "Bash", { command: "echo hi > mine.txt" });
    expect(out.hookSpecificOutput?.updatedInput).toBeUndefined();
  });

  it("a write to the peer's file the reader let through fails in the kernel, and the bytes stay", () => {
    // The reader refuses `echo x > peer.txt` up front; python's open is a spelling it cannot read.
    const command = rewritten(`python3 -c 'open("peer.txt", "w").write("lost")'`);
    const r = run(["bash", "-c", command]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/Read-only file system|Permission denied/);
    expect(readFileSync(join(repo, "peer.txt"), "utf8")).toBe("peer work\n");
  });

  it("a shell redirect and Tandem's state fail too, whatever the reader made of them", () => {
    const command = rewritten(
      `p=$(echo cGVlci50eHQ= | base64 -d); (echo x > "$p") 2>&1; python3 -c 'import sys; open(sys.argv[1] + "/planted", "w")' .git/tandem`,
    );
    const r = run(["bash", "-c", command]);
    expect(r.status).not.toBe(0);
    expect(`${r.stdout}${r.stderr}`).toMatch(/Read-only file system|Permission denied/);
    expect(readFileSync(join(repo, "peer.txt"), "utf8")).toBe("peer work\n");
    expect(existsSync(join(repo, ".git/tandem/planted"))).toBe(false);
  });

  it("the session's own write succeeds, with the command's output and exit code", () => {
    const command = rewritten(
      'echo "mine, edited" > mine.txt; printf "out %s" "a b"; printf err >&2; exit 7',
    );
    const r = run(["bash", "-c", command]);
    expect([r.status, r.stdout, r.stderr]).toEqual([7, "out a b", "err"]);
    expect(readFileSync(join(repo, "mine.txt"), "utf8")).toBe("mine, edited\n");
  });

  it("refuses the command, and says why and what to do, when the jail cannot be set up", () => {
    // A PATH with git, node and the shell but no unshare: the kernel guard is not available.
    const bin = tempDir("tandem-hookjail-bin-");
    for (const tool of ["git", "sh", "bash", "runuser"]) {
      const found = spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).stdout.trim();
      if (found) symlinkSync(found, join(bin, tool));
    }
    chmodSync(bin, 0o755);
    const out = preTool(
      "self-session",
      selfPid,
      "Bash",
      { command: "echo hi > mine.txt" },
      { ...KERNEL, PATH: bin },
    );
    const answer = out.hookSpecificOutput;
    expect(answer?.permissionDecision, JSON.stringify(out)).toBe("deny");
    expect(answer?.permissionDecisionReason).toMatch(
      /kernel jail cannot be set up.*unshare.*"guard": "reader"/s,
    );
    expect(answer?.updatedInput).toBeUndefined();
  });

  it("the launcher refuses, and runs nothing, when its plan is gone", () => {
    rewritten("true");
    const launcher = join(repo, ".git/tandem/bin/jail");
    const gone = join(repo, ".git/tandem/jail/no-such.plan");
    const r = run(["bash", launcher, gone, "touch ran.txt"]);
    expect(r.status).toBe(125);
    expect(r.stderr).toMatch(/the command did not run/);
    expect(existsSync(join(repo, "ran.txt"))).toBe(false);
  });

  it("a command whose session's jail ended before it ran refuses, and runs nothing", async () => {
    const command = rewritten("touch ran.txt");
    const holder = JSON.parse(readFileSync(holderFile(), "utf8")) as { pid: number };
    process.kill(holder.pid, "SIGKILL");
    // A signal lands a moment after kill() returns; wait until the holder is gone or a zombie.
    await vi.waitFor(() => expect(procInfo(holder.pid), "the holder is still running").toBeNull(), {
      timeout: patient(10_000),
      interval: 20,
    });
    const r = run(["bash", "-c", command]);
    expect(r.status, r.stderr).toBe(125);
    expect(r.stderr).toMatch(/jail ended before the command ran, so it did not run/);
    expect(existsSync(join(repo, "ran.txt"))).toBe(false);
  });
});
