/**
 * Runs a command in a jail (docs/decisions/0054) and keeps the jail's read-only binds in place
 * while it runs. A bind mount pins an inode: when an owner outside saves by rename (or deletes and
 * recreates), the kernel drops the jail's bind on the old file, so the jailed reader sees the new
 * bytes but could now write them. A watcher on each bound file's directory sees the new file and
 * asks the keeper inside the jail (src/core/jail/argv.ts) to bind it again. stdio, the exit code and a signal's death pass through.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  closeSync,
  type FSWatcher,
  constants as fsc,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  watch,
  writeSync,
} from "node:fs";
import { constants, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { jailArgv } from "../core/jail/argv.js";
import { mountPoints } from "../core/jail/mountinfo.js";

export interface JailRun {
  /** The exit code the command ended with (128 + signal number when a signal ended it). */
  code: Promise<number>;
  /** The jailed process (the command itself, after the stage execs it). */
  pid: number;
  /** Binds asked back after an owner replaced a file (for tests and the bench). */
  rebinds(): number;
}

const SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** The paths of `wanted` the jail `pid` lost (null: the jail has ended). */
function lost(pid: number, wanted: readonly string[]): string[] | null {
  try {
    const mounted = mountPoints(readFileSync(`/proc/${pid}/mountinfo`, "utf8"));
    return wanted.filter((p) => !mounted.has(p));
  } catch {
    return null;
  }
}

/** A fifo in a fresh private directory: the keeper inside the jail reads bind requests from it. */
function keeperFifo(): { dir: string; fifo: string } | null {
  const dir = mkdtempSync(join(tmpdir(), "tandem-jail-"));
  const fifo = join(dir, "keeper");
  if (spawnSync("mkfifo", ["-m", "600", fifo], { stdio: "ignore" }).status === 0) return { dir, fifo };
  rmSync(dir, { recursive: true, force: true });
  return null;
}

/** Watches the directories of the bound files: a change to a bound name re-checks its bind. */
function watchBinds(pid: number, files: readonly string[], ask: (path: string) => void): FSWatcher[] {
  const byDir = new Map<string, Map<string, string>>();
  for (const f of files) {
    const dir = dirname(f);
    if (!byDir.has(dir)) byDir.set(dir, new Map());
    byDir.get(dir)!.set(basename(f), f);
  }
  const watchers: FSWatcher[] = [];
  for (const [dir, names] of byDir) {
    try {
      const w = watch(dir, { persistent: false }, (_event, name) => {
        const hit = name === null ? [...names.values()] : names.has(name) ? [names.get(name)!] : [];
        for (const path of hit.length > 0 ? (lost(pid, hit) ?? []) : []) ask(path);
      });
      w.on("error", () => w.close());
      watchers.push(w);
    } catch {
      // A directory gone since the plan: nothing in it to keep bound.
    }
  }
  return watchers;
}

/**
 * Starts `command` with `paths` read-only; `files`: those of them that are files (an owner's
 * rename-save can replace them; a whole directory is not watched).
 */
export function runJailed(
  paths: readonly string[],
  files: readonly string[],
  command: readonly string[],
  /** `doctor`: the doctor command as the caller runs it, for the refusal when the jail cannot start. */
  opts: { cwd: string; env: NodeJS.ProcessEnv; doctor: string },
): JailRun {
  const keeper = keeperFifo();
  const { file, args } = jailArgv(paths, command, keeper?.fifo ?? "");
  const child = spawn(file, args, { cwd: opts.cwd, env: opts.env, stdio: "inherit" });
  // Read-write and non-blocking: opening never waits for the keeper, and the keeper sees the end
  // of the fifo only when this side closes it (when the command has ended).
  const fd = keeper ? openSync(keeper.fifo, fsc.O_RDWR | fsc.O_NONBLOCK) : null;
  const index = new Map(paths.map((p, i) => [p, i + 1]));
  let rebinds = 0;
  const ask = (path: string) => {
    const n = index.get(path);
    if (fd === null || n === undefined) return;
    try {
      writeSync(fd, `${n}\n`);
      rebinds++;
    } catch {
      // The keeper is gone (the jail ended): nothing left to guard.
    }
  };
  const watchers = child.pid === undefined ? [] : watchBinds(child.pid, files, ask);
  const forward = (sig: NodeJS.Signals) => child.kill(sig);
  for (const s of SIGNALS) process.on(s, forward);
  const code = new Promise<number>((resolve) => {
    const done = (n: number) => {
      for (const w of watchers) w.close();
      // The fifo's name goes before this end closes: a keeper that had not opened it yet finds
      // no fifo and exits, where after the close its open would wait for a writer forever.
      if (keeper) rmSync(keeper.dir, { recursive: true, force: true });
      if (fd !== null) closeSync(fd);
      for (const s of SIGNALS) process.off(s, forward);
      resolve(n);
    };
    child.on("error", (err) => {
      process.stderr.write(
        `tandem jail: cannot start ${file} (${err.message}), so the command did not run; install util-linux or see \`${opts.doctor}\`\n`,
      );
      done(125);
    });
    child.on("exit", (c, sig) => done(c ?? 128 + (sig ? constants.signals[sig] : 1)));
  });
  return { code, pid: child.pid ?? -1, rebinds: () => rebinds };
}
