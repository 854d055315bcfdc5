import { remoteOf } from "./objects.js";
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
  intervalSeconds: number;
  /** A claim changed or a session started or ended: sync now, whatever the interval says. */
  force?: boolean;
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
  if (!o.force && last !== null && last <= o.now && o.now - last < o.intervalSeconds * 1000) return "recent";
  if (syncLockHolder(o.stateDir, o.now) !== null) return "running";
  try {
    if (!remoteOf(o.root, o.remoteName)) return "no-remote";
  } catch {
    return "no-remote";
  }
  markSyncStart(o.stateDir, o.now);
  const { spawn } = process.getBuiltinModule("node:child_process");
  spawn(process.execPath, [o.entry, "--root", o.root, "sync", "--background"], {
    cwd: o.root,
    env: o.env,
    detached: true,
    stdio: "ignore",
  }).unref();
  return "started";
}
