/**
 * Runs a whole client in a jail whose read-only set follows the claims while it runs
 * (`tandem run`, docs/decisions/0056). The launcher's keeper, inside the jail, makes the mounts
 * match the plan file whenever a line arrives on its fifo; this side rewrites the plan when the
 * store changes (a claim taken or released, a session ending) or on a slow tick (a peer going
 * stale writes nothing), and asks for a sync when a bound file's directory changes (an owner's
 * rename-save drops the bind on the old file). stdio, the exit code and a signal's death pass through.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  closeSync,
  type FSWatcher,
  constants as fsc,
  mkdtempSync,
  openSync,
  rmSync,
  watch,
  writeSync,
} from "node:fs";
import { constants, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { procInfo } from "../sessions/proc.js";
import { secretsView, writeRunKey } from "./keys.js";
import { ensureJailLauncher, writeJailPlan } from "./launcher.js";

export interface FollowAsk {
  stateDir: string;
  /** Tandem's root: the launcher's refusal names its agents' doctor command. */
  root: string;
  /** The read-only paths now; `child` is the jailed client's pid (its own sessions are not peers). */
  plan(child: number | null): string[];
  argv: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** How often the plan is recomputed when the store is quiet. */
  tickMs?: number;
}

const SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** Watches `dirs`; each event calls `on`. A directory gone since is skipped. */
function watchDirs(dirs: Iterable<string>, on: () => void): FSWatcher[] {
  const out: FSWatcher[] = [];
  for (const dir of dirs) {
    try {
      const w = watch(dir, { persistent: false }, on);
      w.on("error", () => w.close());
      out.push(w);
    } catch {
      // Nothing to follow there.
    }
  }
  return out;
}

export function runFollowing(ask: FollowAsk): Promise<number> {
  const launcher = ensureJailLauncher(ask.stateDir, ask.root);
  const name = `run-${process.pid}`;
  // The run's key (decision 0071), in the jail as secrets/self: the client's hooks and its agent's
  // commands reach the server through the jails' door, for sessions that descend from this process.
  const keyFile = writeRunKey(ask.stateDir, name, process.pid, procInfo(process.pid)?.start ?? "unknown");
  let paths = ask.plan(null);
  const planFile = writeJailPlan(ask.stateDir, name, paths);
  const dir = mkdtempSync(join(tmpdir(), "tandem-run-"));
  const fifo = join(dir, "keeper");
  const cleanup = () => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(planFile, { force: true });
    rmSync(planFile.replace(/\.plan$/, ".fstab"), { force: true });
    rmSync(secretsView(ask.stateDir, name), { recursive: true, force: true });
    rmSync(keyFile, { force: true });
  };
  if (spawnSync("mkfifo", ["-m", "600", fifo], { stdio: "ignore" }).status !== 0) {
    cleanup();
    process.stderr.write("tandem run: mkfifo failed, so the client did not start; install coreutils\n");
    return Promise.resolve(125);
  }
  const child = spawn("bash", [launcher, "--follow", fifo, planFile, ...ask.argv], {
    cwd: ask.cwd,
    env: ask.env,
    stdio: "inherit",
  });
  const fd = openSync(fifo, fsc.O_RDWR | fsc.O_NONBLOCK);
  const sync = () => {
    try {
      writeSync(fd, "p\n");
    } catch {
      // The keeper is gone: the jail has ended.
    }
  };
  let timer: NodeJS.Timeout | null = null;
  let fileWatchers: FSWatcher[] = [];
  const refresh = () => {
    timer = null;
    const next = ask.plan(child.pid ?? null);
    if (next.join("\0") !== paths.join("\0")) {
      paths = next;
      writeJailPlan(ask.stateDir, name, paths);
      for (const w of fileWatchers) w.close();
      fileWatchers = watchDirs(new Set(paths.map(dirname)), sync);
    }
    sync();
  };
  const soon = () => {
    timer ??= setTimeout(refresh, 100);
  };
  fileWatchers = watchDirs(new Set(paths.map(dirname)), sync);
  const store = watchDirs([ask.stateDir], soon);
  const tick = setInterval(soon, ask.tickMs ?? 5000);
  const forward = (sig: NodeJS.Signals) => child.kill(sig);
  for (const s of SIGNALS) process.on(s, forward);
  return new Promise<number>((resolve) => {
    const done = (n: number) => {
      clearInterval(tick);
      if (timer) clearTimeout(timer);
      for (const w of [...store, ...fileWatchers]) w.close();
      // Unlinked before this end closes, as in src/jail/run.ts: a keeper not yet in its open
      // finds no fifo, where after the close it would wait for a writer forever.
      cleanup();
      closeSync(fd);
      for (const s of SIGNALS) process.off(s, forward);
      resolve(n);
    };
    child.on("error", (err) => {
      process.stderr.write(`tandem run: cannot start bash (${err.message}), so the client did not run\n`);
      done(125);
    });
    child.on("exit", (c, sig) => done(c ?? 128 + (sig ? constants.signals[sig] : 1)));
  });
}
