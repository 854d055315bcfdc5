import { spawn } from "node:child_process";
import { patient } from "../../helpers/patience.js";
import { afterEachTest } from "../../helpers/per-file.js";

/**
 * Process groups of runs still going. A test that times out (vitest's bound can come before this
 * run's own, which stretches with load) abandons its run: the group is killed when the test ends,
 * not left running for the rest of the file (issue 42: `opencode run` lived on for 1 h 40 min).
 */
const live = new Set<number>();
afterEachTest(() => {
  for (const pid of live) killGroup(pid);
  live.clear();
});

/**
 * Variables that would make a nested client think it is a subagent of the client running the tests,
 * send it to a real provider, or point git at another repository.
 */
const INHERITED_PREFIXES = ["ANTHROPIC_", "CLAUDE", "CODEX_", "OPENAI_", "GIT_", "GEMINI_", "GOOGLE_"];
const INHERITED_NAMES = ["AI_AGENT", "MOCK_API_KEY"];

/** The test process environment without anything that leaks the outer session into a client run. */
export function clientEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    const leaks = INHERITED_PREFIXES.some((p) => key.startsWith(p)) || INHERITED_NAMES.includes(key);
    // GIT_SSL_CAINFO and friends are machine setup, not repository redirection: keep them.
    if (!leaks || key.startsWith("GIT_SSL_")) env[key] = value;
  }
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

export interface ProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  durationMs: number;
}

export interface RunProcessOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Hears the child's pid (its process group's) once it started, so a caller can stop it early. */
  onSpawn?: (pid: number) => void;
}

/**
 * Runs a command with stdin from /dev/null and collects its output. On timeout the whole process
 * group is killed, so hook processes a client left behind do not outlive the test.
 */
export function runProcess(
  cmd: string,
  args: readonly string[],
  opts: RunProcessOptions,
): Promise<ProcessResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args as string[], {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    if (child.pid !== undefined) {
      live.add(child.pid);
      opts.onSpawn?.(child.pid);
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, patient(opts.timeoutMs));
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(new Error(`cannot start ${cmd}: ${e.message}`));
    });
    child.on("close", (exitCode, signal) => {
      clearTimeout(timer);
      if (child.pid !== undefined) live.delete(child.pid);
      resolve({
        exitCode,
        signal,
        timedOut,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        durationMs: Date.now() - started,
      });
    });
  });
}

export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** Parses newline-delimited JSON, skipping lines that are not JSON objects (banners, warnings). */
export function parseJsonLines(text: string): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (!trimmed.startsWith("{")) continue;
    try {
      events.push(JSON.parse(trimmed) as Record<string, unknown>);
    } catch {
      // A partial line from a killed process: ignore.
    }
  }
  return events;
}
