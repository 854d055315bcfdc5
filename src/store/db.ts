import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { STORE_LOCK_SECONDS } from "../config/store-lock.js";
import { guardStore, StoreError } from "./failure.js";
import { type Conn, type Db, raw, sealed } from "./handle.js";
import { MIGRATIONS, SCHEMA_VERSION } from "./migrations.js";
import { checkIdentity, expectedIdentity, settleIdentity } from "./trust.js";

export type { Db, ReadTx, WriteTx } from "./handle.js";

const MAGIC = "SQLite format 3\0";

function fileSize(file: string): number | null {
  try {
    return statSync(file).size;
  } catch {
    return null;
  }
}

function readHeader(file: string): Buffer | null {
  const header = Buffer.alloc(100);
  const fd = openSync(file, "r");
  try {
    return readSync(fd, header, 0, 100, 0) === 100 ? header : null;
  } finally {
    closeSync(fd);
  }
}

/** Bytes the header says the file holds, when that field is valid (SQLite file format §1.3). */
function declaredSize(header: Buffer): number | null {
  const rawPageSize = header.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  const pageCount = header.readUInt32BE(28);
  const valid = header.readUInt32BE(92) === header.readUInt32BE(24);
  return valid && pageCount > 0 ? pageCount * pageSize : null;
}

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Cheap structural check before SQLite touches the file, so a garbage or
 * truncated store is reported instead of being "repaired" by a write. While a
 * checkpoint copies pages from the WAL, the header may briefly announce pages
 * the file does not hold yet: with a non-empty WAL the size is left to SQLite,
 * and a short file is re-measured a few times before it counts as truncated.
 */
export function checkHeader(file: string): string | null {
  const size = fileSize(file);
  if (size === null || size === 0) return null;
  const header = readHeader(file);
  if (header === null || header.toString("latin1", 0, 16) !== MAGIC) return "not an SQLite database";
  if ((fileSize(`${file}-wal`) ?? 0) > 0) return null;
  for (let attempt = 0; ; attempt++) {
    const declared = declaredSize(readHeader(file) ?? header);
    const now = fileSize(file) ?? 0;
    if (declared === null || now >= declared) return null;
    if (attempt === 4) return `truncated: ${now} bytes, header says ${declared}`;
    pause(25);
  }
}

function migrate(db: Conn, file: string): void {
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new StoreError(
      "unavailable",
      file,
      `schema version ${version} is newer than this tandem's ${SCHEMA_VERSION}: upgrade tandem`,
    );
  }
  if (version === SCHEMA_VERSION) return;
  db.transaction(() => {
    // Re-read inside the write lock: another process may have migrated meanwhile.
    const current = db.pragma("user_version", { simple: true }) as number;
    for (const step of MIGRATIONS.slice(current)) for (const sql of step) db.exec(sql);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

let binding: { nativeBinding?: string } | undefined;

const ADDON = ["better-sqlite3", "build", "Release", "better_sqlite3.node"];

/**
 * Where better-sqlite3's compiled addon is, so neither module resolution nor
 * the `bindings` package searches for it on every hook call. Bundled, this file
 * is `<package>/dist/*.cjs`: the addon is in the package's own node_modules, or
 * beside the package when npm hoisted it; otherwise resolution finds it, and
 * failing that better-sqlite3 searches itself.
 */
export function nativeBindingOption(): { nativeBinding?: string } {
  if (binding) return binding;
  binding = {};
  if (typeof __dirname !== "string" || typeof require !== "function") return binding;
  for (const candidate of addonCandidates(__dirname)) {
    if (!existsSync(candidate)) continue;
    binding = { nativeBinding: candidate };
    break;
  }
  return binding;
}

/** Lazily, so resolution runs only when both guesses miss. */
function* addonCandidates(dir: string): Generator<string> {
  yield join(dir, "..", "node_modules", ...ADDON);
  yield join(dir, "..", "..", ...ADDON);
  try {
    yield join(dirname(require.resolve("better-sqlite3/package.json")), ...ADDON.slice(1));
  } catch {
    // Not resolvable from here either: better-sqlite3 searches itself.
  }
}

export interface OpenOptions {
  readonly?: boolean;
  /** How long to wait for another process's write lock before failing (agents.storeLockSeconds). */
  lockSeconds?: number;
  /** `tandem doctor` opens a store it does not trust, to say what is wrong with it. */
  untrusted?: boolean;
}

/** A gated hook answers within the bound plus its own work, never after minutes. */
export const DEFAULT_LOCK_SECONDS = STORE_LOCK_SECONDS;

/** How long this connection waits for another process's write lock (SQLite's busy timeout). */
export function setLockWait(db: Db, seconds: number): void {
  raw(db).pragma(`busy_timeout = ${Math.round(seconds * 1000)}`);
}

/** The wait `setLockWait` set, in seconds: what a refusal for a held lock reports. */
export function lockWaitSeconds(db: Db): number {
  return (raw(db).pragma("busy_timeout", { simple: true }) as number) / 1000;
}

export function dbFile(stateDir: string): string {
  return join(stateDir, "state.db");
}

/**
 * Opens (creating if needed) `<stateDir>/state.db`: WAL, busy timeout,
 * synchronous=FULL, migrated, and checked against the identity recorded beside
 * it. Every failure is a StoreError naming the file, the problem and the fix.
 */
export function openDb(stateDir: string, opts: OpenOptions = {}): Db {
  const file = dbFile(stateDir);
  return guardStore(file, () => {
    const size = fileSize(file);
    const expected = opts.untrusted
      ? ({ state: "none" } as const)
      : expectedIdentity(stateDir, file, size !== null && size > 0);
    const problem = checkHeader(file);
    if (problem) throw new StoreError("corrupt", file, problem);
    if (!opts.readonly) mkdirSync(stateDir, { recursive: true });
    const db = new Database(file, {
      readonly: opts.readonly === true,
      fileMustExist: opts.readonly === true,
      ...nativeBindingOption(),
    });
    try {
      setLockWait(sealed(db), opts.lockSeconds ?? DEFAULT_LOCK_SECONDS);
      // Checks each cell's size as a page is read: more damage is reported instead of misread.
      db.pragma("cell_size_check = ON");
      checkIdentity(sealed(db), file, expected);
      if (!opts.readonly) {
        // A new store can give space back a slice at a time (`tandem gc`). Only settable while the
        // file is empty: older stores need one full VACUUM for it (`tandem gc --vacuum`).
        if (db.pragma("page_count", { simple: true }) === 0) db.pragma("auto_vacuum = INCREMENTAL");
        if (db.pragma("journal_mode", { simple: true }) !== "wal") db.pragma("journal_mode = WAL");
        db.pragma("synchronous = FULL");
        migrate(db, file);
        if (!opts.untrusted) settleIdentity(sealed(db), stateDir, file, expected);
      }
      return sealed(db);
    } catch (err) {
      db.close();
      throw err;
    }
  });
}

const statements = new WeakMap<Db, Map<string, Database.Statement>>();

/**
 * A prepared statement, compiled once per connection: a hook that claims a
 * 100-file patch runs the same few statements hundreds of times.
 */
export function stmt(db: Db, sql: string): Database.Statement {
  let byText = statements.get(db);
  if (!byText) {
    byText = new Map();
    statements.set(db, byText);
  }
  let s = byText.get(sql);
  if (!s) {
    s = raw(db).prepare(sql);
    byText.set(sql, s);
  }
  return s;
}
