import { existsSync } from "node:fs";
import { type LoadedConfig, loadConfig } from "../config/load.js";
import { type ResolvedRoot, resolveRoot, stateDirOf } from "../config/root.js";
import { DIRECT_ACCESS, type StoreAccess } from "../store/access.js";
import type { Db } from "../store/db.js";
import { dbFile } from "../store/db.js";
import { identityFile } from "../store/identity.js";

export interface Io {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The caller's process: the command's own, or the thin client's when the server answers. */
  pid: number;
  /** The session whose kernel jail sent the request (its key vouched, decision 0064): it acts for that one alone. */
  jail?: string;
  out: (text: string) => void;
  err: (text: string) => void;
  isTty: boolean;
  /** Set by a command that finished but refused (1); thrown errors carry their own code. */
  exitCode: number;
  /** Warm store connections when the resident server runs the command (docs/server.md). */
  store?: StoreAccess;
}

/**
 * A reader that stops early (`tandem events | head`) closes the pipe: the rest of the output has
 * nowhere to go, which is no failure of the command. Without a listener Node would throw EPIPE
 * from the next write as an uncaught exception with a stack trace.
 */
function quietOnClosedPipe(): void {
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE") throw err;
    process.exit(process.exitCode ?? 0);
  });
}

export function processIo(): Io {
  quietOnClosedPipe();
  return {
    cwd: process.cwd(),
    env: process.env,
    pid: process.pid,
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    isTty: process.stdout.isTTY === true,
    exitCode: 0,
  };
}

export interface Project {
  resolved: ResolvedRoot;
  loaded: LoadedConfig;
  stateDir: string;
}

export function findProject(io: Io, rootFlag: string | undefined): Project {
  const resolved = resolveRoot({ cwd: io.cwd, flag: rootFlag, env: io.env });
  const loaded = loadConfig(resolved.root, io.env);
  for (const w of loaded.warnings) io.err(`tandem: warning: ${w}\n`);
  return { resolved, loaded, stateDir: stateDirOf(resolved) };
}

/** Opens the project's store; read-only commands do not create a store that does not exist yet. */
export function openProjectDb(project: Project, opts: { create: boolean }, io?: Io): Db | null {
  // A store this repository once had and lost is reported by openDb, not read as "no store yet".
  if (!opts.create && !existsSync(dbFile(project.stateDir)) && !existsSync(identityFile(project.stateDir)))
    return null;
  const access = io?.store ?? DIRECT_ACCESS;
  return access.open(project.stateDir, { lockSeconds: project.loaded.config.storeLockSeconds });
}

/** Gives back a store connection `openProjectDb(…, io)` opened. */
export function releaseProjectDb(io: Io, db: Db): void {
  (io.store ?? DIRECT_ACCESS).release(db);
}
