import { existsSync, type FSWatcher, statSync, watch } from "node:fs";
import { dirname, relative } from "node:path";
import { errorMessage } from "../errors.js";
import type { StoreAccess } from "../store/access.js";
import { type Db, dbFile } from "../store/db.js";
import { wiringFiles } from "../store/wiring/rows.js";
import { healWiring } from "../wiring/heal.js";

/**
 * The resident server's watch on the wiring (docs/decisions/0024): each directory holding a
 * recorded wiring file, and each root, is watched; any change there runs the same heal as a hook,
 * so a write that unhooks Tandem is undone without waiting for a hook. Directories are watched
 * rather than files, because an editor's save (or ours) replaces the file; a replaced or removed
 * directory is re-armed after each check. A slow tick runs the check too: it finds a new `init`,
 * and a change whose event never arrived is healed within the tick, not at the next hook.
 */

const SETTLE_MS = 25;
const TICK_MS = 2_000;
const LOCK_SECONDS = 0.25;
const RETRY_MS = 1_000;

/** Watches one directory: `changed` with the name of what changed there, `failed` on a watch error. */
export type WatchDir = (
  dir: string,
  changed: (name: string | null) => void,
  failed: () => void,
) => { close(): void };

/** The kernel's watch (inotify here), kept from holding the server open. */
export const fsWatchDir: WatchDir = (dir, changed, failed) => {
  const watcher: FSWatcher = watch(dir, { persistent: false }, (_event, name) =>
    changed(name === null ? null : String(name)),
  );
  watcher.on("error", failed);
  return watcher;
};

interface Armed {
  watcher: { close(): void };
  /** `dev:ino` of the directory when armed: another directory put in its place needs a new watch. */
  id: string;
}

export interface WiringWatch {
  close(): void;
}

function dirId(dir: string): string | null {
  const st = statSync(dir, { throwIfNoEntry: false });
  return st?.isDirectory() ? `${st.dev}:${st.ino}` : null;
}

/** The directories to watch, each with the first path segments below a root that matter there. */
function wanted(db: Db): Map<string, Set<string> | null> {
  const out = new Map<string, Set<string> | null>();
  const files = wiringFiles(db);
  for (const f of files) out.set(dirname(f.path), null);
  // Each root too, for its wiring directories (`.claude`, `.tandem`…) removed or replaced.
  for (const f of files) {
    const top = relative(f.root, f.path).split("/")[0]!;
    const names = out.get(f.root);
    if (top.startsWith("..") || names === null) continue;
    out.set(f.root, (names ?? new Set<string>()).add(top));
  }
  return out;
}

export function watchWiring(
  stateDir: string,
  store: StoreAccess,
  log: (line: string) => void,
  watchDir: WatchDir = fsWatchDir,
): WiringWatch {
  const armed = new Map<string, Armed>();
  let closed = false;
  let pending: ReturnType<typeof setTimeout> | null = null;

  // A fault here is logged, never thrown: a timer's throw would take the server down.
  const guarded = (what: string, step: () => void): boolean => {
    try {
      step();
      return true;
    } catch (err) {
      log(`wiring ${what} failed: ${errorMessage(err)}`);
      return false;
    }
  };
  /**
   * A warm connection of the server's pool (never a new one per event: that would recreate files of
   * a store damaged under the server), with a short lock wait, because the server answers hooks on
   * this thread; a busy store is tried again. A store that is gone is never created here.
   */
  const withDb = <T>(use: (db: Db) => T): T | null => {
    if (!existsSync(dbFile(stateDir))) return null;
    const db = store.open(stateDir, { lockSeconds: LOCK_SECONDS });
    try {
      return use(db);
    } finally {
      store.release(db);
    }
  };
  const heal = (): void => {
    const r = withDb((db) => healWiring(db, stateDir, { via: "server", foundBy: () => null }));
    for (const x of r?.restored ?? []) log(`restored Tandem's entries in ${x.file}: ${x.changes.join("; ")}`);
    for (const x of r?.unhealable ?? []) log(`cannot heal ${x.file}: ${x.reason}`);
  };
  const check = (): void => {
    pending = null;
    if (closed) return;
    if (!guarded("check", heal)) pending = setTimeout(check, RETRY_MS);
    guarded("watch", rearm);
  };
  const soon = (): void => {
    if (!closed && pending === null) pending = setTimeout(check, SETTLE_MS);
  };
  const disarm = (dir: string): void => {
    armed.get(dir)?.watcher.close();
    armed.delete(dir);
  };
  const arm = (dir: string, names: Set<string> | null, id: string): void => {
    try {
      const watcher = watchDir(
        dir,
        (name) => {
          if (names === null || name === null || names.has(name)) soon();
        },
        () => {
          disarm(dir);
          soon();
        },
      );
      armed.set(dir, { watcher, id });
    } catch (err) {
      log(`cannot watch ${dir}: ${errorMessage(err)}`);
    }
  };
  const rearm = (): void => {
    if (closed) return;
    const want = withDb(wanted) ?? new Map<string, Set<string> | null>();
    for (const dir of [...armed.keys()]) if (!want.has(dir)) disarm(dir);
    for (const [dir, names] of want) {
      const id = dirId(dir);
      const have = armed.get(dir);
      if (have && have.id === id) continue;
      disarm(dir);
      if (id !== null) arm(dir, names, id);
      // A directory replaced or gone may have taken wiring with it.
      if (have) soon();
    }
  };
  const tick = setInterval(soon, TICK_MS);
  tick.unref();
  check();
  return {
    close() {
      closed = true;
      clearInterval(tick);
      if (pending) clearTimeout(pending);
      for (const dir of [...armed.keys()]) disarm(dir);
    },
  };
}
