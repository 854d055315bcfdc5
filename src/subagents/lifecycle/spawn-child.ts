import { closeSync, fstatSync, openSync, readSync, writeSync } from "node:fs";

export interface ChildSpec {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Appended to; the child writes into it directly, so it keeps logging even if Tandem dies. */
  logFile: string;
  timeoutMs: number | null;
  onSpawn: (pid: number) => void;
  /** Receives the log as it grows (TTY only). */
  live: ((chunk: Buffer) => void) | null;
}

export type ExitReason = "exited" | "signal" | "interrupted" | "timeout" | "spawn-failed";

export interface ChildExit {
  exitCode: number | null;
  signal: string | null;
  reason: ExitReason;
  message: string | null;
}

const KILL_GRACE_MS = 10_000;
const POLL_MS = 200;

/** Signals the child's whole process group; a group that is gone is fine. */
function signalGroup(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig);
  } catch {
    try {
      process.kill(pid, sig);
    } catch {
      // Already gone.
    }
  }
}

/** Follows the log file from `offset`, handing new bytes to `sink`. */
function follower(file: string, offset: number, sink: (chunk: Buffer) => void): () => void {
  let at = offset;
  const buf = Buffer.alloc(64 * 1024);
  return () => {
    const fd = openSync(file, "r");
    try {
      for (let n = readSync(fd, buf, 0, buf.length, at); n > 0; n = readSync(fd, buf, 0, buf.length, at)) {
        sink(Buffer.from(buf.subarray(0, n)));
        at += n;
      }
    } finally {
      closeSync(fd);
    }
  };
}

/**
 * Runs the child headless in its own process group, output to the log, and
 * waits. Ctrl-C is forwarded (SIGINT, then SIGTERM, then SIGKILL on repeats)
 * instead of ending Tandem, so capture still runs afterwards; a timeout ends
 * the child the same way.
 */
export function runChild(spec: ChildSpec): Promise<ChildExit> {
  const log = openSync(spec.logFile, "a");
  const header = `# tandem: ${new Date().toISOString()} ${JSON.stringify([spec.command, ...spec.args])}\n`;
  writeSync(log, header);
  // Only this run's output is shown live, not earlier runs' lines in the same log.
  const offset = fstatSync(log).size;
  return new Promise((resolve) => {
    let interrupts = 0;
    let timedOut = false;
    let settled = false;
    let timer: NodeJS.Timeout | null = null;
    let graceTimer: NodeJS.Timeout | null = null;
    const child = process.getBuiltinModule("node:child_process").spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      stdio: ["ignore", log, log],
      detached: true,
    });
    closeSync(log);
    const pump = spec.live ? follower(spec.logFile, offset, spec.live) : null;
    const poll = pump ? setInterval(pump, POLL_MS) : null;
    const onInterrupt = () => {
      interrupts++;
      if (child.pid)
        signalGroup(child.pid, interrupts === 1 ? "SIGINT" : interrupts === 2 ? "SIGTERM" : "SIGKILL");
    };
    const onTerm = () => {
      interrupts++;
      if (child.pid) signalGroup(child.pid, "SIGTERM");
    };
    process.on("SIGINT", onInterrupt);
    process.on("SIGTERM", onTerm);
    process.on("SIGHUP", onTerm);
    const finish = (exit: ChildExit) => {
      if (settled) return;
      settled = true;
      process.off("SIGINT", onInterrupt);
      process.off("SIGTERM", onTerm);
      process.off("SIGHUP", onTerm);
      for (const t of [timer, graceTimer]) if (t) clearTimeout(t);
      if (poll) clearInterval(poll);
      pump?.();
      resolve(exit);
    };
    child.on("error", (err) => {
      finish({ exitCode: null, signal: null, reason: "spawn-failed", message: err.message });
    });
    child.on("spawn", () => {
      if (child.pid) spec.onSpawn(child.pid);
      if (spec.timeoutMs !== null && child.pid) {
        const pid = child.pid;
        timer = setTimeout(() => {
          timedOut = true;
          signalGroup(pid, "SIGTERM");
          graceTimer = setTimeout(() => signalGroup(pid, "SIGKILL"), KILL_GRACE_MS);
        }, spec.timeoutMs);
      }
    });
    child.on("exit", (code, signal) => {
      const reason: ExitReason = timedOut
        ? "timeout"
        : interrupts > 0
          ? "interrupted"
          : signal
            ? "signal"
            : "exited";
      finish({ exitCode: code, signal, reason, message: null });
    });
  });
}
