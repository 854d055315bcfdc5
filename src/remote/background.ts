import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { lastSyncStart, markSyncStart, syncLockHolder } from "./sync-lock.js";

export interface BackgroundSyncOptions {
  /** The tandem binary (dist/tandem.cjs); null when running from sources: nothing to start. */
  entry: string | null;
  root: string;
  stateDir: string;
  env: Readonly<Record<string, string | undefined>>;
  now: number;
  enabled: boolean;
  remoteName: string | null;
  /** The NATS engine is configured (decision 0063): rounds need no Git remote. */
  viaNats?: boolean;
  intervalSeconds: number;
  /** A claim changed or a session started or ended: sync now, whatever the interval says. */
  force?: boolean;
}

/** Forced rounds (a claim taken, a session started) still start at most this often: bursts of edits. */
const FORCED_GAP_MS = 3000;

/** Whether the repository's config names a remote at all (`remote.name`'s, when set). */
export function mayHaveRemote(stateDir: string, name: string | null): boolean {
  try {
    const text = readFileSync(join(dirname(stateDir), "config"), "utf8");
    return name ? text.includes(`[remote "${name}"]`) : /\[remote "/.test(text);
  } catch {
    return false;
  }
}

/** Why a background round was or was not started, for tests and `doctor`. */
export type BackgroundSync = "started" | "disabled" | "recent" | "running" | "no-remote";

/**
 * Starts `tandem sync --background` detached when the last round started more than the interval
 * ago (or `force`), no round runs now, and there is a remote. What a hook calls: it costs a stat or
 * two, a local `git remote` at most once per interval, and never touches the network.
 */
export function startBackgroundSync(o: BackgroundSyncOptions): BackgroundSync {
  if (!o.enabled || !o.entry) return "disabled";
  const last = lastSyncStart(o.stateDir);
  // A mark dated in the future (clock set back) does not hold rounds off.
  const gap = o.force ? FORCED_GAP_MS : o.intervalSeconds * 1000;
  if (last !== null && last <= o.now && o.now - last < gap) return "recent";
  if (syncLockHolder(o.stateDir, o.now) !== null) return "running";
  // The round finds the remote itself; a hook only reads the config file (no git process).
  if (!o.viaNats && !mayHaveRemote(o.stateDir, o.remoteName)) return "no-remote";
  markSyncStart(o.stateDir, o.now);
  const { spawn } = process.getBuiltinModule("node:child_process");
  const child = spawn(process.execPath, [o.entry, "--root", o.root, "sync", "--background"], {
    cwd: o.root,
    env: o.env,
    detached: true,
    stdio: "ignore",
  });
  // A start that fails after spawn returns (no such directory, no processes left) arrives as an
  // 'error' event, which unheard ends the resident server. The next interval's hook tries again.
  child.on("error", () => {});
  child.unref();
  return "started";
}
