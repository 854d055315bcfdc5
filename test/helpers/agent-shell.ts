import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";
import type { RunResult } from "./cli.js";

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

/** Runs `file args` as a child of the agent started by `agentShell()`; waits for it. */
export function runInAgent(
  agent: { CLAUDE_PID: string },
  file: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string | undefined>; input?: string },
): RunResult {
  const socket = sockets.get(agent.CLAUDE_PID);
  if (!socket) throw new Error(`pid ${agent.CLAUDE_PID} is not an agent started by agentShell()`);
  const request = JSON.stringify({ file, args, cwd: opts.cwd, env: opts.env, input: opts.input ?? "" });
  const res = spawnSync(process.execPath, [CALL, socket], { input: request, encoding: "utf8" });
  if (res.status !== 0) throw new Error(`the agent shell did not answer: ${res.stderr}`);
  return JSON.parse(res.stdout) as RunResult;
}

afterAll(() => {
  for (const r of runners.splice(0)) r.kill();
});
