import { existsSync, type FSWatcher, statSync, watch } from "node:fs";
import { dirname, relative } from "node:path";
import { errorMessage } from "../errors.js";
import { healWiring } from "../init/heal.js";
import { dbFile, openDb } from "../store/db.js";
import { wiringFiles } from "../store/wiring.js";

/**
 * The resident server's watch on the wiring (docs/decisions/0024): each directory holding a
 * recorded wiring file, and each root, is watched; any change there runs the same heal as a hook,
 * so a write that unhooks Tandem is undone without waiting for a hook. Directories are watched
 * rather than files, because an editor's save (or ours) replaces the file; a replaced or removed
 * directory is re-armed after each check and on a slow tick (which also finds a new `init`).
 */

const SETTLE_MS = 25;
const REARM_MS = 2_000;

interface Armed {
  watcher: FSWatcher;
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
function wanted(stateDir: string): Map<string, Set<string> | null> {
  // Never create a store the server is about to notice is gone (it exits then).
  if (!existsSync(dbFile(stateDir))) return new Map();
  const db = openDb(stateDir, { readonly: true });
  try {
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
  } finally {
    db.close();
  }
}

export function watchWiring(stateDir: string, log: (line: string) => void): WiringWatch {
  const armed = new Map<string, Armed>();
  let closed = false;
  let pending: ReturnType<typeof setTimeout> | null = null;

  // A fault here is logged, never thrown: a timer's throw would take the server down.
  const guarded = (what: string, step: () => void): void => {
    try {
      step();
    } catch (err) {
      log(`wiring ${what} failed: ${errorMessage(err)}`);
    }
  };
  const heal = (): void => {
    if (!existsSync(dbFile(stateDir))) return;
    const db = openDb(stateDir);
    try {
      const r = healWiring(db, stateDir, { via: "server", foundBy: () => null });
      for (const x of r.restored) log(`restored Tandem's entries in ${x.file}: ${x.changes.join("; ")}`);
      for (const x of r.unhealable) log(`cannot heal ${x.file}: ${x.reason}`);
    } finally {
      db.close();
    }
  };
  const check = (): void => {
    pending = null;
    if (closed) return;
    guarded("check", heal);
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
      const watcher = watch(dir, { persistent: false }, (_event, name) => {
        if (names === null || name === null || names.has(String(name))) soon();
      });
      watcher.on("error", () => {
        disarm(dir);
        soon();
      });
      armed.set(dir, { watcher, id });
    } catch (err) {
      log(`cannot watch ${dir}: ${errorMessage(err)}`);
    }
  };
  const rearm = (): void => {
    if (closed) return;
    const want = wanted(stateDir);
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
  const tick = setInterval(() => guarded("watch", rearm), REARM_MS);
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
