import { spawn } from "node:child_process";
import type { CheckRun } from "../core/land/result.js";
import { outputTail } from "../core/land/tail.js";
import { scrubbedEnv } from "../git/run.js";

/** Output kept while the check runs; only its tail is reported. */
const KEEP_BYTES = 256 * 1024;

export interface CheckSpec {
  command: string;
  timeoutMs: number;
  /** The shared checkout, offered to the check as TANDEM_LAND_TOP (e.g. to reuse its node_modules). */
  top: string;
  /**
   * Judges the command before it first runs in `dir`, as the lander's own shell command would be
   * (hooks/land-check-guard.ts): null lets it run, a string is the refusal.
   */
  judge?: (dir: string) => Promise<string | null>;
}

/**
 * Runs `land.check` through the shell in `dir` (the private worktree at the commit to test), in a
 * process group of its own so a timeout kills the whole tree (`npm test` → its runner → workers).
 */
export function runCheck(spec: CheckSpec, dir: string): Promise<CheckRun> {
  return new Promise((resolve) => {
    const env = scrubbedEnv({ TANDEM_LAND_TOP: spec.top, TANDEM_LAND_CHECK_DIR: dir });
    // The check is the project's command; git settings of ours must not leak into it.
    delete env.LC_ALL;
    delete env.GIT_OPTIONAL_LOCKS;
    const child = spawn("/bin/sh", ["-c", spec.command], {
      cwd: dir,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const keep = (d: Buffer) => {
      out += d.toString("utf8");
      if (out.length > KEEP_BYTES) out = out.slice(-KEEP_BYTES);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, spec.timeoutMs);
    let settled = false;
    const done = (exitCode: number | null, extra = "") => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Whatever the shell left running (a background server of the tests) goes with it.
      killGroup(child.pid);
      resolve({ command: spec.command, exitCode, timedOut, output: outputTail(out + extra) });
    };
    child.on("error", (e) => done(null, `\n${e.message}`));
    child.on("close", (code) => done(timedOut ? null : code));
  });
}

function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {}
}
