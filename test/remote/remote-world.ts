import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { openDb } from "../../src/store/db.js";
import { type RemotePresenceRow, remotePresenceRows, remoteSyncState } from "../../src/store/remote/rows.js";
import { type RunResult, TANDEM_BIN } from "../helpers/cli.js";
import { g, initRepo, tempDir } from "../helpers/repo.js";

/** Clones of one bare remote, reached over file:// or over the git protocol (a real git daemon). */

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, "127.0.0.1", ok));
  const port = (s.address() as { port: number }).port;
  await new Promise((ok) => s.close(ok));
  return port;
}

/** A TCP server that accepts and never answers: a remote that hangs. */
export async function silentServer(): Promise<{ port: number; close: () => void }> {
  const s: Server = createServer(() => {});
  await new Promise<void>((ok) => s.listen(0, "127.0.0.1", ok));
  return { port: (s.address() as { port: number }).port, close: () => s.close() };
}

export async function startDaemon(base: string): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const daemon: ChildProcess = spawn(
    "git",
    [
      "daemon",
      "--export-all",
      "--enable=receive-pack",
      "--reuseaddr",
      `--base-path=${base}`,
      `--port=${port}`,
      "--listen=127.0.0.1",
      base,
    ],
    { stdio: "ignore" },
  );
  const url = `git://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      g(base, "ls-remote", `${url}/remote.git`);
      return { url, stop: () => daemon.kill() };
    } catch {
      await new Promise((ok) => setTimeout(ok, 50));
    }
  }
  daemon.kill();
  throw new Error("git daemon did not come up");
}

export interface World {
  base: string;
  bare: string;
  url: string;
  clone: (name: string) => string;
}

/** A bare remote with one commit on main, reached at `url(base)`. */
export function bareWorld(urlOf: (base: string) => string): World {
  const base = tempDir();
  const bare = join(base, "remote.git");
  const seed = initRepo(join(base, "seed"));
  g(base, "init", "-q", "--bare", "-b", "main", bare);
  g(seed, "push", "-q", bare, "main");
  const world: World = {
    base,
    bare,
    url: urlOf(base),
    clone: (name) => {
      const dir = join(base, name);
      g(base, "clone", "-q", `${world.url}/remote.git`, dir);
      return dir;
    },
  };
  return world;
}

/** Writes `.tandem/config.jsonc` in a clone, kept out of `git status`. */
export function setConfig(repo: string, config: unknown): void {
  writeFileSync(join(repo, ".git", "info", "exclude"), ".tandem/\n");
  mkdirSync(join(repo, ".tandem"), { recursive: true });
  writeFileSync(join(repo, ".tandem", "config.jsonc"), JSON.stringify(config));
}

export function stored(repo: string): {
  rows: RemotePresenceRow[];
  sync: ReturnType<typeof remoteSyncState>;
} {
  const db = openDb(join(repo, ".git", "tandem"));
  try {
    return { rows: remotePresenceRows(db), sync: remoteSyncState(db) };
  } finally {
    db.close();
  }
}

/** A bare remote with one commit on main, and `n` clones of it. */
export function clones(n: number): { base: string; remote: string; dirs: string[] } {
  const base = tempDir();
  const remote = join(base, "remote.git");
  g(base, "init", "-q", "--bare", "-b", "main", remote);
  const seed = initRepo(join(base, "seed"));
  g(seed, "push", "-q", `file://${remote}`, "main");
  const from = `file://${remote}`;
  const dirs = Array.from({ length: n }, (_, i) => {
    const dir = join(base, `c${i}`);
    g(base, "clone", "-q", from, dir);
    return dir;
  });
  return { base, remote, dirs };
}

/** The built binary as a separate process, without waiting: racing machines. */
export function tandemAsync(args: string[], cwd: string): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TANDEM_BIN, ...args], {
      cwd,
      env: { ...process.env, XDG_CONFIG_HOME: "/nonexistent/tandem-test-xdg" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
