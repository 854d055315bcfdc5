import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RunResult } from "./cli.js";
import { afterEachFile } from "./per-file.js";

const RUNNER = fileURLToPath(new URL("./agent-shell-runner.mjs", import.meta.url));
const CALL = fileURLToPath(new URL("./agent-shell-call.mjs", import.meta.url));

const sockets = new Map<string, string>();
const runners: ChildProcess[] = [];

/**
 * A stand-in agent process whose shell commands can be run inside it, synchronously: like
 * `fakeAgent()`, its pid is the `CLAUDE_PID` hooks record, and `runInAgent` runs a command as its
 * child, so the command's ancestry places it inside that agent (decisions 0021, 0045), as every
 * command a real client runs is placed.
 */
export function agentShell(): { CLAUDE_PID: string } {
  const socket = join(mkdtempSync(join(tmpdir(), "tandem-agent-")), "agent.sock");
  const child = spawn(process.execPath, [RUNNER, socket], { stdio: "ignore" });
  runners.push(child);
  const pid = String(child.pid);
  sockets.set(pid, socket);
  return { CLAUDE_PID: pid };
}

/**
 * `agentShell()` whose process is named for a client: its script is `<name>.mjs`, so it reads as
 * `node …/qwen.mjs`, as Qwen Code, Gemini CLI or Cline's launcher run (src/sessions/ui.ts
 * `namesClient`). `stop()` kills it as a closed terminal would, without an end event.
 */
export function namedAgentShell(
  name: string,
  opts: { args?: string[]; cwd?: string } = {},
): { CLAUDE_PID: string; pid: number; stop: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "tandem-agent-"));
  const script = join(dir, `${name}.mjs`);
  copyFileSync(RUNNER, script);
  const socket = join(dir, "agent.sock");
  const child = spawn(process.execPath, [script, socket, ...(opts.args ?? [])], {
    stdio: "ignore",
    cwd: opts.cwd,
  });
  runners.push(child);
  const pid = child.pid!;
  sockets.set(String(pid), socket);
  return { CLAUDE_PID: String(pid), pid, stop: () => child.kill("SIGKILL") };
}

interface AgentCall {
  cwd: string;
  env: Record<string, string | undefined>;
  input?: string;
}

function request(agent: { CLAUDE_PID: string }, file: string, args: string[], opts: AgentCall) {
  const socket = sockets.get(agent.CLAUDE_PID);
  if (!socket) throw new Error(`pid ${agent.CLAUDE_PID} is not an agent started by agentShell()`);
  return {
    socket,
    body: JSON.stringify({ file, args, cwd: opts.cwd, env: opts.env, input: opts.input ?? "" }),
  };
}

/** Runs `file args` as a child of the agent started by `agentShell()`; waits for it. */
export function runInAgent(
  agent: { CLAUDE_PID: string },
  file: string,
  args: string[],
  opts: AgentCall,
): RunResult {
  const { socket, body } = request(agent, file, args, opts);
  const res = spawnSync(process.execPath, [CALL, socket], { input: body, encoding: "utf8" });
  if (res.status !== 0) throw new Error(`the agent shell did not answer: ${res.stderr}`);
  return JSON.parse(res.stdout) as RunResult;
}

/** `runInAgent` without blocking this process: for a test whose fake model server answers from it. */
export function runInAgentAsync(
  agent: { CLAUDE_PID: string },
  file: string,
  args: string[],
  opts: AgentCall,
): Promise<RunResult> {
  const { socket, body } = request(agent, file, args, opts);
  return new Promise((resolve, reject) => {
    const call = spawn(process.execPath, [CALL, socket], { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    call.stdout.on("data", (c: Buffer) => out.push(c));
    call.stderr.on("data", (c: Buffer) => err.push(c));
    call.on("error", reject);
    call.on("close", (code) => {
      if (code !== 0) reject(new Error(`the agent shell did not answer: ${Buffer.concat(err).toString()}`));
      else resolve(JSON.parse(Buffer.concat(out).toString("utf8")) as RunResult);
    });
    call.stdin.end(body);
  });
}

afterEachFile(() => {
  for (const r of runners.splice(0)) r.kill();
});
