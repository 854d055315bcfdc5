import { closeSync, openSync } from "node:fs";
import { stamp, stampTime } from "../store/stamp-file.js";
import { logFile, startedMark } from "./paths.js";

/** Variables a server keeps from the process that starts it; the rest describe one agent's call. */
const KEPT =
  /^(PATH|HOME|USER|LOGNAME|SHELL|LANG|LC_\w+|TZ|TMPDIR|XDG_\w+|SystemRoot|TEMP|TMP|NODE_OPTIONS)$/;

/** A Node hook that found no server starts one at most this often while it comes up. */
const RESTART_GAP_MS = 10_000;

export function serverEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && KEPT.test(k)) out[k] = v;
  return out;
}

/**
 * Starts `tandem serve` for the repository at `root`, detached and without a terminal, its output
 * in the state directory's log. The server decides itself whether another already serves
 * (store/server/row.ts); this only avoids starting one per hook while the first comes up.
 */
export function startServer(opts: {
  entry: string;
  root: string;
  stateDir: string;
  env: Readonly<Record<string, string | undefined>>;
  now: number;
}): boolean {
  const mark = startedMark(opts.stateDir);
  const last = stampTime(mark) ?? 0;
  if (opts.now - last < RESTART_GAP_MS && opts.now >= last) return false;
  stamp(mark, opts.now);
  const log = openSync(logFile(opts.stateDir), "a", 0o600);
  try {
    const { spawn } = process.getBuiltinModule("node:child_process");
    spawn(process.execPath, [opts.entry, "serve", "--root", opts.root], {
      cwd: opts.root,
      env: serverEnv(opts.env),
      detached: true,
      stdio: ["ignore", log, log],
    }).unref();
  } finally {
    closeSync(log);
  }
  return true;
}
