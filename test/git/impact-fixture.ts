import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { GitImpact } from "../../src/core/git/call.js";
import { gitImpact } from "../../src/git/impact.js";
import { splitZ } from "../../src/git/run.js";
import { g, initRepo, writeFiles } from "../helpers/repo.js";

/**
 * A repository with every kind of dirty entry and a side branch:
 * - main: c1 (all files), c2 (staged.txt → v2); side (from c1): dirty.txt, clean.txt changed, new.txt added.
 * - dirty now: dirty.txt and sub/deep.txt unstaged, staged.txt staged, new.txt and sub/new.txt
 *   untracked (side tracks new.txt), debug.log ignored; clean.txt and sub/clean.txt clean.
 * So HEAD...side (from the merge base) names dirty.txt, clean.txt, new.txt; HEAD..side adds staged.txt.
 */
export function buildFixture(dir: string): string {
  const repo = initRepo(join(dir, "repo"), {
    ".gitignore": "*.log\n",
    "dirty.txt": "dirty v1\n",
    "staged.txt": "staged v1\n",
    "clean.txt": "clean v1\n",
    "sub/deep.txt": "deep v1\n",
    "sub/clean.txt": "sub clean v1\n",
  });
  g(repo, "switch", "-q", "-c", "side");
  writeFiles(repo, { "dirty.txt": "dirty side\n", "clean.txt": "clean side\n", "new.txt": "new side\n" });
  g(repo, "add", "-A");
  g(repo, "commit", "-q", "-m", "side");
  g(repo, "switch", "-q", "main");
  writeFiles(repo, { "staged.txt": "staged v2\n" });
  g(repo, "commit", "-q", "-am", "main v2");
  writeFiles(repo, {
    "dirty.txt": "dirty edit\n",
    "staged.txt": "staged edit\n",
    "sub/deep.txt": "deep edit\n",
    "new.txt": "new untracked\n",
    "sub/new.txt": "sub new untracked\n",
    "debug.log": "ignored\n",
  });
  g(repo, "add", "staged.txt");
  return repo;
}

/** A temp directory for the whole file, for fixtures that the tests only read. */
export function sharedDir(): () => string {
  let dir = "";
  beforeAll(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), "tandem-impact-")));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return () => dir;
}

/** Splits a command line on spaces; `␠` stands for a space inside one word. */
export const words = (line: string) =>
  line === "" ? [] : line.split(" ").map((w) => w.replaceAll("␠", " "));

/** What an impact holds besides at-risk and committed paths, when the command touches no staged work. */
export const NO_INDEX = { stagedLost: [], stages: [], commitsIndex: false } as const;

export function impactOf(repo: string, line: string, cwd = ""): GitImpact {
  return gitImpact({ cwd, args: words(line) }, repo);
}

/** Every dirty path (untracked and ignored too) with its bytes. */
function dirtyContents(repo: string): Map<string, string | null> {
  const out = g(repo, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored", "--no-renames");
  return new Map(splitZ(out).map((r) => [r.slice(3), read(join(repo, r.slice(3)))]));
}

function read(file: string): string | null {
  return existsSync(file) ? readFileSync(file, "utf8") : null;
}

/** Runs the real command and returns the dirty paths whose bytes it changed or removed. */
export function dirtyPathsChangedBy(repo: string, line: string, cwd = ""): string[] {
  const before = dirtyContents(repo);
  g(join(repo, cwd), ...words(line));
  return [...before]
    .filter(([path, bytes]) => read(join(repo, path)) !== bytes)
    .map(([path]) => path)
    .sort();
}
