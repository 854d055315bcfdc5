import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { git } from "../../src/git/run.js";
import { afterEachTest } from "./per-file.js";

const made: string[] = [];

/** A fresh temp directory (physical path), removed after the current test. */
export function tempDir(prefix = "tandem-test-"): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

/**
 * A client a test drove can leave a process behind for a moment that still writes into its home
 * (Gemini CLI relaunches itself): removal retries, and a directory still busy after that is
 * reported, not failed on — cleaning up is not the behaviour under test.
 */
function removeDir(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (err) {
    console.warn(`tempDir: could not remove ${dir}: ${(err as Error).message}`);
  }
}

afterEachTest(() => {
  for (const dir of made.splice(0)) {
    removeDir(dir);
    // A temp dir used as a state dir has the store's identity files beside it.
    for (const beside of [".store-id", ".corrupt", ".hook-errors.log"])
      rmSync(`${dir}${beside}`, { force: true });
  }
});

const IDENTITY = ["-c", "user.name=Tandem Test", "-c", "user.email=test@tandem.invalid"];

/** Runs git in `cwd` with a fixed identity so commits work on a bare CI machine. */
export function g(cwd: string, ...args: string[]): string {
  return git(cwd, [...IDENTITY, "-c", "protocol.file.allow=always", ...args]);
}

/**
 * Each distinct starting repository, made once per worker and copied after that: a test run asks
 * for about a thousand, and three git processes from a test worker cost ~10 ms where a copy costs
 * ~2 ms. A copy is the same repository (same commit, same objects); only the index's stat data
 * differs, which git refreshes on its next look, as after any checkout by another tool.
 */
const templates = new Map<string, string>();
let templateRoot: string | null = null;

function template(files: Record<string, string>): string {
  const key = JSON.stringify(Object.entries(files));
  const have = templates.get(key);
  if (have && existsSync(have)) return have;
  templateRoot ??= realpathSync(mkdtempSync(join(tmpdir(), "tandem-test-templates-")));
  const dir = join(templateRoot, String(templates.size));
  freshRepo(dir, files);
  templates.set(key, dir);
  return dir;
}

function freshRepo(dir: string, files: Record<string, string>): void {
  mkdirSync(dir, { recursive: true });
  g(dir, "init", "-q", "-b", "main");
  writeFiles(dir, files);
  g(dir, "add", "-A");
  g(dir, "commit", "-q", "-m", "initial");
}

/** Creates a repository with one commit (a copy, unless `dir` already holds something to commit). */
export function initRepo(dir: string, files: Record<string, string> = { "README.md": "hello\n" }): string {
  if (existsSync(dir) && readdirSync(dir).length > 0) freshRepo(dir, files);
  else cpSync(template(files), dir, { recursive: true, preserveTimestamps: true });
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = join(dir, rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/** A repository plus a bare remote it tracks (`origin/main`). */
export function repoWithRemote(base: string): { repo: string; remote: string } {
  const remote = join(base, "remote.git");
  g(base, "init", "-q", "--bare", "-b", "main", remote);
  const repo = initRepo(join(base, "repo"));
  g(repo, "remote", "add", "origin", remote);
  g(repo, "push", "-q", "-u", "origin", "main");
  return { repo, remote };
}
