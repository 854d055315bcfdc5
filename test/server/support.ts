import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { processAlive, procInfo } from "../../src/sessions/proc.js";
import { openDb } from "../../src/store/db.js";
import { type ServerRow, serverRow } from "../../src/store/server/row.js";
import type { RunResult } from "../helpers/cli.js";
import { TANDEM_BIN } from "../helpers/cli.js";
import { removeWorkDirs } from "../helpers/leftovers.js";
import { patient } from "../helpers/patience.js";
import { afterEachTest } from "../helpers/per-file.js";

/** The thin client the build writes: the wired hook command. */
export const THIN = fileURLToPath(new URL("../../dist/tandem", import.meta.url));
export { TANDEM_BIN };

export type Env = Record<string, string>;

/**
 * The test runner's environment without anything that would tell Tandem which agent or session
 * calls, or point Git elsewhere: every test says that itself.
 */
export function cleanEnv(extra: Env = {}): Env {
  const env: Env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^(TANDEM_|CLAUDE_|CODEX_|CURSOR_|GIT_)/.test(k)) continue;
    env[k] = v;
  }
  return { ...env, XDG_CONFIG_HOME: "/nonexistent/tandem-test-xdg", ...extra };
}

/** Runs `file args` with `input` on stdin and resolves with what a caller sees. */
export function run(
  file: string,
  args: string[],
  opts: { cwd: string; env: Env; input?: string },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: opts.cwd, env: opts.env, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.on("error", reject);
    child.on("close", (code, signal) =>
      resolve({
        code: code ?? (signal ? 128 : -1),
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
    child.stdin.on("error", () => {});
    child.stdin.end(opts.input ?? "");
  });
}

/** `tandem hook <client> <event>` through the thin client, as a client runs the wired command. */
export function thinHook(
  client: string,
  event: string,
  payload: object,
  opts: { cwd: string; env: Env },
): Promise<RunResult> {
  return run(THIN, ["hook", client, event], { ...opts, input: JSON.stringify(payload) });
}

export const stateDir = (repo: string): string => join(repo, ".git", "tandem");

/** The registered server of `repo`'s store, live or not; null when none or no store. */
export function registered(repo: string): ServerRow | null {
  if (!existsSync(join(stateDir(repo), "state.db"))) return null;
  const db = openDb(stateDir(repo), { readonly: true });
  try {
    return serverRow(db);
  } finally {
    db.close();
  }
}

/** The live server of `repo`, as `tandem serve --status` judges it. */
export function liveServer(repo: string): ServerRow | null {
  const row = registered(repo);
  return row && processAlive(row.pid, row.pid_start) ? row : null;
}

/**
 * The live server of `repo` once it answers: it registers before it listens, and logs "serving …"
 * only after its address is published, so the log line is the sign a hook can reach it.
 */
export function answeringServer(repo: string): ServerRow | null {
  const row = liveServer(repo);
  return row && serverOutput(repo).includes(`pid ${row.pid})`) ? row : null;
}

export async function waitFor<T>(what: string, probe: () => T | null | false, ms = 60_000): Promise<T> {
  const deadline = Date.now() + patient(ms);
  for (;;) {
    const got = probe();
    if (got) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const started: ChildProcess[] = [];
const served = new Set<string>();
const scratchDirs: string[] = [];

/** A fresh temp directory (physical path), removed after the test once its servers stopped. */
export function scratch(prefix = "tandem-srv-"): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  scratchDirs.push(dir);
  return dir;
}

/** Remembers that a server may run for `repo`, so the test's end stops it. */
export function watchServer(repo: string): void {
  served.add(repo);
}

/** `node dist/tandem.cjs serve` for `repo`, as the on-demand start runs it, not yet waited for. */
export function spawnServer(repo: string, env: Env = {}, bundle = TANDEM_BIN): ChildProcess {
  watchServer(repo);
  const child = spawn(process.execPath, [bundle, "serve"], {
    cwd: repo,
    env: cleanEnv({ TANDEM_SERVER_IDLE_SECONDS: "120", ...env }),
    stdio: ["ignore", "ignore", "pipe"],
  });
  started.push(child);
  child.stderr!.on("data", (c: Buffer) => output.set(repo, (output.get(repo) ?? "") + c.toString()));
  return child;
}

const output = new Map<string, string>();

/** What the servers of `repo` logged: those the test started (stderr), and those started on demand. */
export function serverOutput(repo: string): string {
  let log = "";
  try {
    log = readFileSync(join(stateDir(repo), "serve.log"), "utf8");
  } catch {
    // None was started on demand.
  }
  return (output.get(repo) ?? "") + log;
}

/** A server for `repo`, up and reachable (its address published). */
export async function startServer(repo: string, env: Env = {}, bundle = TANDEM_BIN): Promise<ServerRow> {
  const child = spawnServer(repo, env, bundle);
  const addr = join(stateDir(repo), "serve.addr");
  await waitFor("the server to publish its address", () => {
    if (child.exitCode !== null) throw new Error(`tandem serve exited ${child.exitCode}`);
    return existsSync(addr) && liveServer(repo);
  });
  return liveServer(repo)!;
}

/** Whether a process (not necessarily our child) has exited. */
export function gone(pid: number): boolean {
  return !processAlive(pid, null);
}

export function serveCommand(repo: string, flag: "--status" | "--stop"): RunResult {
  const res = spawnSync(process.execPath, [TANDEM_BIN, "serve", flag], {
    cwd: repo,
    env: cleanEnv(),
    encoding: "utf8",
  });
  return { code: res.status ?? -1, stdout: res.stdout, stderr: res.stderr };
}

/** Running, and not a zombie waiting to be collected (procInfo reads its state). */
const running = (pid: number): boolean => procInfo(pid) !== null;

afterEachTest(async () => {
  const stopping: number[] = [];
  for (const repo of served) {
    const row = existsSync(repo) ? liveServer(repo) : null;
    if (row) {
      process.kill(row.pid, "SIGTERM");
      stopping.push(row.pid);
    }
  }
  served.clear();
  output.clear();
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  // A server writes its state (keys, address) until it has exited: wait for that, bounded, so
  // removing its directory does not race its last writes.
  const until = Date.now() + patient(10_000);
  while (stopping.some(running) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  // A server a hook started on demand, or a detached child (a sync round, upkeep), may still be
  // writing there: it is ended before the directories go.
  await removeWorkDirs(scratchDirs.splice(0));
});
