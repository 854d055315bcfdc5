import { closeSync, openSync, rmSync, writeSync } from "node:fs";
import { GitError, scrubbedEnv } from "./run.js";

export interface StreamToFileOptions {
  /** Extra variables on top of the scrubbed environment. */
  env?: Record<string, string>;
  /** Destination; created exclusively (`wx`) so a stale or foreign file is never overwritten. */
  file: string;
  /** Hard cap on stdout bytes; one byte more kills git and deletes the file. */
  maxBytes: number;
  /** Sees every chunk as it is written (valid during the call only); a throw fails the run. */
  onChunk?: (chunk: Buffer) => void;
}

export type StreamToFileResult = { exceeded: false; bytes: number } | { exceeded: true; bytesSeen: number };

/**
 * Bytes streamed between two minor garbage collections. The pipe hands over a fresh buffer for
 * every read; V8 lets tens of MiB of those dead buffers wait for its external-memory limit, so a
 * 100 MB patch raised the peak by ~30 MiB. A young-generation collection every 4 MiB costs well
 * under a millisecond and keeps the peak where a small capture's is.
 */
const COLLECT_EVERY = 4 * 1024 * 1024;

let minorGc: ((opts: { type: "minor" }) => void) | null | undefined;

/** V8's collector, exposed once at run time; without it (an unusual runtime) nothing is collected early. */
function collectYoung(): void {
  if (minorGc === undefined) {
    const v8 = process.getBuiltinModule("node:v8");
    try {
      v8.setFlagsFromString("--expose-gc");
      minorGc = process.getBuiltinModule("node:vm").runInNewContext("gc") as typeof minorGc;
    } catch {
      minorGc = null;
    } finally {
      // V8 checks code caches against its flags: leave them as they were (the function stays usable).
      v8.setFlagsFromString("--no-expose-gc");
    }
  }
  minorGc?.({ type: "minor" });
}

/** Enough stderr for an error message without letting a chatty git grow memory. */
const STDERR_LIMIT = 64 * 1024;

function writeAll(fd: number, chunk: Buffer): void {
  let off = 0;
  while (off < chunk.length) off += writeSync(fd, chunk, off, chunk.length - off);
}

/**
 * Runs git and streams its stdout into `file`, never holding the output in memory.
 * When the output passes `maxBytes` the child is killed mid-flight and the partial
 * file is deleted; on any failure the file is deleted too, so only a complete
 * output is ever left behind.
 */
export function gitToFile(
  cwd: string,
  args: readonly string[],
  opts: StreamToFileOptions,
): Promise<StreamToFileResult> {
  const fd = openSync(opts.file, "wx", 0o600);
  return new Promise((resolve, reject) => {
    const child = process.getBuiltinModule("node:child_process").spawn("git", args as string[], {
      cwd,
      env: scrubbedEnv(opts.env),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let bytes = 0;
    let collectAt = COLLECT_EVERY;
    let exceeded = false;
    let failure: Error | null = null;
    let stderr = "";
    let settled = false;

    const finish = (status: number | null): void => {
      if (settled) return;
      settled = true;
      try {
        closeSync(fd);
        const ok = !exceeded && !failure && status === 0;
        if (!ok) rmSync(opts.file, { force: true });
        if (ok) resolve({ exceeded: false, bytes });
        else if (exceeded) resolve({ exceeded: true, bytesSeen: bytes });
        else reject(failure ?? new GitError(args, cwd, status, stderr));
      } catch (err) {
        // Never leave the caller waiting on a promise that cannot settle.
        reject(err);
      }
    };
    const abort = (err: Error): void => {
      failure ??= err;
      child.kill("SIGKILL");
    };

    child.stdout.on("data", (chunk: Buffer) => {
      if (exceeded || failure) return;
      bytes += chunk.length;
      if (bytes > opts.maxBytes) {
        exceeded = true;
        child.kill("SIGKILL");
        return;
      }
      try {
        writeAll(fd, chunk);
        opts.onChunk?.(chunk);
        if (bytes >= collectAt) {
          collectAt = bytes + COLLECT_EVERY;
          collectYoung();
        }
      } catch (err) {
        abort(err as Error);
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < STDERR_LIMIT) stderr += chunk.toString("utf8");
    });
    child.on("error", (err) => {
      failure ??= new GitError(args, cwd, null, err.message);
      finish(null);
    });
    child.on("close", (status) => finish(status));
  });
}
