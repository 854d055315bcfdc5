import type { SpawnSyncReturns } from "node:child_process";

/** Variables that point git at a repository, index or object store other than the one in its cwd. */
export const GIT_LOCATION_VARS = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_COMMON_DIR",
  "GIT_NAMESPACE",
  "GIT_PREFIX",
] as const;

/** Variables that redirect git away from the repository we name with `-C`. */
const SCRUBBED = [
  ...GIT_LOCATION_VARS,
  "GIT_CEILING_DIRECTORIES",
  "GIT_DISCOVERY_ACROSS_FILESYSTEM",
  "GIT_QUARANTINE_PATH",
  "GIT_REPLACE_REF_BASE",
  "GIT_EXTERNAL_DIFF",
  "GIT_DIFF_OPTS",
  "GIT_PAGER",
  "GIT_EDITOR",
  "GIT_SEQUENCE_EDITOR",
];

export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly cwd: string,
    readonly status: number | null,
    readonly stderr: string,
  ) {
    const detail = stderr.trim().split("\n")[0] || `exit ${status ?? "signal"}`;
    super(`git ${args.join(" ")} failed in ${cwd}: ${detail}`);
    this.name = "GitError";
  }
}

export interface GitOptions {
  /** Extra variables on top of the scrubbed environment (e.g. a temporary GIT_INDEX_FILE). */
  env?: Record<string, string>;
  input?: string | Buffer;
  /** Exit codes that are answers rather than failures (e.g. 1 for `merge-base --is-ancestor`). */
  okCodes?: readonly number[];
  maxBuffer?: number;
  /** Kills git after this long (network commands: a remote that never answers). */
  timeoutMs?: number;
  /** gitStatusAsync() only: kills git once aborted (an answer no longer wanted). */
  signal?: AbortSignal;
}

/** The process environment without anything that would point git at another repository. */
export function scrubbedEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of SCRUBBED) delete env[key];
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_OPTIONAL_LOCKS = "0";
  env.LC_ALL = "C";
  return { ...env, ...extra };
}

function spawnGit(cwd: string, args: readonly string[], opts: GitOptions): SpawnSyncReturns<Buffer> {
  // Loaded on first use: most hook calls never run git, and the module costs ~7 ms to load.
  const { spawnSync } = process.getBuiltinModule("node:child_process");
  return spawnSync("git", args as string[], {
    cwd,
    env: scrubbedEnv(opts.env),
    input: opts.input,
    maxBuffer: opts.maxBuffer ?? 512 * 1024 * 1024,
    stdio: ["pipe", "pipe", "pipe"],
    ...(opts.timeoutMs ? { timeout: opts.timeoutMs, killSignal: "SIGKILL" as const } : {}),
  });
}

/** Runs git with an argument array (never a shell string) and returns raw stdout. */
export function gitRaw(cwd: string, args: readonly string[], opts: GitOptions = {}): Buffer {
  const res = spawnGit(cwd, args, opts);
  if (res.error) throw new GitError(args, cwd, null, res.error.message);
  const ok = res.status === 0 || (res.status !== null && (opts.okCodes ?? []).includes(res.status));
  if (!ok) throw new GitError(args, cwd, res.status, res.stderr.toString("utf8"));
  return res.stdout;
}

export function git(cwd: string, args: readonly string[], opts: GitOptions = {}): string {
  return gitRaw(cwd, args, opts).toString("utf8");
}

/** Like git() but returns the exit status too, for commands whose status is the answer. */
export function gitStatus(
  cwd: string,
  args: readonly string[],
  opts: GitOptions = {},
): { status: number; stdout: string; stderr: string } {
  const res = spawnGit(cwd, args, opts);
  if (res.error || res.status === null) {
    throw new GitError(args, cwd, null, res.error?.message ?? "killed by signal");
  }
  return { status: res.status, stdout: res.stdout.toString("utf8"), stderr: res.stderr.toString("utf8") };
}

/** Splits NUL-terminated output (`-z`) into records, dropping the trailing empty one. */
export function splitZ(out: string): string[] {
  const parts = out.split("\0");
  if (parts.length > 0 && parts[parts.length - 1] === "") parts.pop();
  return parts;
}

/**
 * gitStatus() without blocking: independent git calls (one per repository) run
 * side by side, so a check over several repositories costs the slowest, not the sum.
 */
export function gitStatusAsync(
  cwd: string,
  args: readonly string[],
  opts: GitOptions = {},
): Promise<{ status: number; stdout: string; stderr: string }> {
  const { spawn } = process.getBuiltinModule("node:child_process");
  return new Promise((resolve, reject) => {
    // An aborted call kills git: only read-only calls, which take no lock (GIT_OPTIONAL_LOCKS=0), pass one.
    const child = spawn("git", args as string[], {
      cwd,
      env: scrubbedEnv(opts.env),
      stdio: ["ignore", "pipe", "pipe"],
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", (e) => reject(new GitError(args, cwd, null, e.message)));
    child.on("close", (status) => {
      if (status === null) reject(new GitError(args, cwd, null, "killed by signal"));
      else
        resolve({
          status,
          stdout: Buffer.concat(out).toString("utf8"),
          stderr: Buffer.concat(err).toString("utf8"),
        });
    });
  });
}
