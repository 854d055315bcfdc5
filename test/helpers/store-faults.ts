import { execFileSync, spawn } from "node:child_process";
import { chmodSync, closeSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { PIN, type RunResult, tandem } from "./cli.js";
import { claudeWrite, denied, fakeAgent, type Payload } from "./hooks.js";
import { hook } from "./in-process.js";
import { cli } from "./in-process-cli.js";
import { afterEachTest } from "./per-file.js";
import { initRepo, tempDir } from "./repo.js";
import { restorable } from "./scenario.js";

const require = createRequire(import.meta.url);
export const SQLITE_MODULE = require.resolve("better-sqlite3");
const Database = require("better-sqlite3") as typeof import("better-sqlite3");

/** Two live sessions in a real repository: A holds f.txt and has edited it, uncommitted. */
export interface World {
  repo: string;
  stateDir: string;
  file: string;
  a: Record<string, string>;
  b: Record<string, string>;
  aBytes: string;
}

/**
 * Built once per test file (init through the binary, A's claim through the hook) and put back at
 * the same path before each test: every case starts from the same bytes, and the store, which
 * records that path, stays valid.
 */
const world = restorable<World>("two-sessions", async (base) => {
  const repo = initRepo(join(base, "repo"), { "f.txt": "committed\n" });
  // Wired as a user's repository is, so doctor's verdict speaks of the store alone.
  const init = tandem(["init", ...PIN, "--clients", "claude-code"], { cwd: repo });
  if (init.code !== 0) throw new Error(`tandem init failed: ${init.stderr}`);
  const a = fakeAgent();
  const b = fakeAgent();
  const aBytes = "committed\nA's uncommitted work\n";
  const write = claudeWrite(repo, "A", "f.txt", aBytes);
  const first = await hook("claude-code", "pre-tool-use", write, { cwd: repo, env: a });
  if (denied(first) !== null) throw new Error(`A could not claim f.txt: ${first.stdout}`);
  writeFileSync(join(repo, "f.txt"), aBytes);
  const stateDir = join(repo, ".git", "tandem");
  return { repo, stateDir, file: join(stateDir, "state.db"), a, b, aBytes };
});

export function twoSessions(): Promise<World> {
  return world();
}

/**
 * One hook call as session B, answered in this process (test/helpers/in-process.ts): what the
 * store's faults make a hook decide, not how the binary is wired.
 */
export function asB(
  w: World,
  payload: Payload,
  event = "pre-tool-use",
  env: Record<string, string> = {},
): Promise<RunResult> {
  return hook("claude-code", event, payload, { cwd: w.repo, env: { ...w.b, ...env } });
}

export const NO_CODEX = { PATH: "/usr/bin:/bin" };

export function doctor(repo: string, ...args: string[]): RunResult {
  return tandem(["doctor", ...args], { cwd: repo, env: NO_CODEX });
}

/** `tandem doctor` answered in this process (test/helpers/in-process-cli.ts). */
export function doctorHere(repo: string, ...args: string[]): Promise<RunResult> {
  return cli(["doctor", ...args], { cwd: repo, env: NO_CODEX });
}

/** Folds the WAL into the file, so byte offsets in state.db are the pages SQLite reads. */
export function checkpoint(file: string): void {
  const db = new Database(file);
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
}

/** Overwrites the root page of `table` with garbage bytes. */
export function corruptTable(file: string, table: string): void {
  checkpoint(file);
  const db = new Database(file, { readonly: true });
  const { rootpage, size } = {
    rootpage: (
      db.prepare("SELECT rootpage FROM sqlite_master WHERE name = ?").get(table) as { rootpage: number }
    ).rootpage,
    size: db.pragma("page_size", { simple: true }) as number,
  };
  db.close();
  const fd = openSync(file, "r+");
  writeSync(fd, Buffer.alloc(size, 0x5a), 0, size, (rootpage - 1) * size);
  closeSync(fd);
}

const undo: (() => void)[] = [];

/** Undoes every injected fault (read-only bits, lock holders) now; also run after each test. */
export function undoFaults(): void {
  for (const u of undo.splice(0).reverse()) u();
}

afterEachTest(undoFaults);

const isRoot = process.getuid?.() === 0;

/**
 * Makes a file or directory unwritable for this process. Root ignores modes,
 * so as root the immutable attribute is used; undone after the test.
 */
export function makeReadOnly(path: string): void {
  if (isRoot) {
    execFileSync("chattr", ["+i", path]);
    undo.push(() => execFileSync("chattr", ["-i", path]));
    return;
  }
  const mode = statSync(path).mode & 0o777;
  chmodSync(path, statSync(path).isDirectory() ? 0o555 : 0o444);
  undo.push(() => chmodSync(path, mode));
}

/** Whether makeReadOnly works here (root on a file system without chattr support cannot). */
export function canMakeReadOnly(): boolean {
  if (!isRoot) return true;
  const probe = join(tempDir(), "probe");
  writeFileSync(probe, "");
  try {
    execFileSync("chattr", ["+i", probe], { stdio: "ignore" });
    execFileSync("chattr", ["-i", probe], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Another process holding the store's write lock (BEGIN IMMEDIATE) until the test ends. */
export async function holdWriteLock(file: string): Promise<() => Promise<void>> {
  const code = `const D = require(${JSON.stringify(SQLITE_MODULE)}); const db = new D(${JSON.stringify(file)}); db.exec("BEGIN IMMEDIATE"); process.stdout.write("locked\\n"); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  undo.push(() => child.kill("SIGKILL"));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => d.toString().includes("locked") && resolve());
    child.on("exit", (c) => reject(new Error(`lock holder exited with ${c}`)));
  });
  return async () => {
    child.kill("SIGKILL");
    await exited;
  };
}

/** A valid, empty store from another repository. */
export async function foreignStore(): Promise<string> {
  const other = initRepo(join(tempDir(), "other"));
  await hook(
    "claude-code",
    "session-start",
    { session_id: "Z", cwd: other, hook_event_name: "SessionStart" },
    {
      cwd: other,
    },
  );
  const file = join(other, ".git", "tandem", "state.db");
  checkpoint(file);
  return file;
}

export const read = (path: string): string => readFileSync(path, "utf8");
