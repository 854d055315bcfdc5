import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ClientName } from "../clients/index.js";
import { resolveRoot, stateDirOf } from "../config/root.js";
import { PLAIN, type Printer, spanned } from "../core/printed.js";
import { errorMessage } from "../errors.js";
import { writeBlob } from "../store/blobs/files.js";
import { type Db, openDb } from "../store/db.js";
import { append, write } from "../store/ledger/append.js";
import {
  dropWiring,
  putWiring,
  type WiringChoice,
  type WiringFileRow,
  wiringChoice,
} from "../store/wiring/rows.js";
import { statesOf } from "./heal-plan.js";
import { readSnapshot } from "./snapshot.js";

/**
 * The record `tandem init` leaves for the healer (docs/decisions/0024): the choice it wired with,
 * and each wiring file's stat stamp and content (as a blob). `deinit` drops it first, so nothing
 * heals what deinit removes.
 */

export const blobsDirOf = (stateDir: string): string => join(stateDir, "blobs");

/**
 * Device, inode, size, mtime and ctime, following links: an editor's rename, a write in place and
 * a write through a link each change it. "-" for a file that is not there.
 */
export function wiringStamp(path: string): string {
  const st = statSync(path, { bigint: true, throwIfNoEntry: false });
  return st ? `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.mode}` : "-";
}

function readOrNull(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

/** The row for a file as it is now; its content goes to the blob store. */
export function currentRow(stateDir: string, root: string, path: string): WiringFileRow {
  const stamp = wiringStamp(path);
  const bytes = readOrNull(path);
  const blob = bytes === null ? null : writeBlob(blobsDirOf(stateDir), bytes).sha256;
  return { path, root, stamp, blob };
}

/**
 * Records what init just wrote for `choice.root`, replacing any earlier record of that root. `env` is
 * the command's: it names the files written outside the root (Gemini's policy under its home).
 */
export function recordWiring(db: Db, stateDir: string, choice: WiringChoice, env: Env): void {
  const snapshot = readSnapshot(choice.root, choice.clients as ClientName[], choice.gitHooks, env);
  const rows = statesOf(snapshot).map((f) => currentRow(stateDir, choice.root, f.path));
  write(db, (tx) => {
    putWiring(db, choice, rows);
    append(tx, {
      kind: "wiring.recorded",
      session: null,
      data: { ...choice, files: rows.map((r) => r.path) },
    });
  });
}

/**
 * Drops the record of `root` before deinit writes, and returns what was recorded: a partial
 * deinit records the rest again afterwards (`remaining`).
 */
export function forgetWiring(db: Db, root: string): WiringChoice | null {
  return write(db, (tx) => {
    const before = wiringChoice(db, root);
    if (!before) return null;
    dropWiring(db, root);
    append(tx, {
      kind: "wiring.cleared",
      session: null,
      data: { root, clients: before.clients, gitHooks: before.gitHooks },
    });
    return before;
  });
}

/** What stays wired after deinit removed `clients` (and the git hooks, unless kept). */
export function remaining(
  before: WiringChoice,
  clients: readonly string[],
  removedGitHooks: boolean,
): WiringChoice | null {
  const left = before.clients.filter((c) => !clients.includes(c));
  const gitHooks = before.gitHooks && !removedGitHooks;
  return left.length === 0 && !gitHooks ? null : { ...before, clients: left, gitHooks };
}

type Env = Readonly<Record<string, string | undefined>>;

function withStore<T>(root: string, env: Env, fn: (db: Db, stateDir: string) => T): T {
  const stateDir = stateDirOf(resolveRoot({ cwd: root, env }));
  const db = openDb(stateDir);
  try {
    return fn(db, stateDir);
  } finally {
    db.close();
  }
}

const unrecorded = (err: unknown, p: Printer): string =>
  `Warning: the wiring was written but not recorded, so it will not heal if something else changes it (${errorMessage(err)}); run ${spanned(p, "doctor")}, then ${spanned(p, "init")} again.`;

/**
 * `tandem init`'s write: the old record is dropped first, so no hook heals towards it while the
 * files change, then `apply` writes and the new choice is recorded. Returns a warning, or null.
 */
export function rewire(
  root: string,
  env: Env,
  choice: WiringChoice,
  apply: () => void,
  p: Printer = PLAIN,
): string | null {
  try {
    withStore(root, env, (db) => forgetWiring(db, root));
  } catch (err) {
    apply();
    return unrecorded(err, p);
  }
  apply();
  try {
    withStore(root, env, (db, stateDir) => recordWiring(db, stateDir, choice, env));
    return null;
  } catch (err) {
    return unrecorded(err, p);
  }
}

/** `tandem deinit`'s write: the record goes first; what deinit leaves wired is recorded again. */
export function unwire(
  root: string,
  env: Env,
  removed: { clients: readonly string[]; gitHooks: boolean },
  apply: () => void,
): void {
  const before = withStore(root, env, (db) => forgetWiring(db, root));
  apply();
  const rest = before ? remaining(before, removed.clients, removed.gitHooks) : null;
  if (rest) withStore(root, env, (db, stateDir) => recordWiring(db, stateDir, rest, env));
}
