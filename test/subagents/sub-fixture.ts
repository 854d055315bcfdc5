import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { PLAIN } from "../../src/core/printed.js";
import { git, splitZ } from "../../src/git/run.js";
import type { ChildStateFacts } from "../../src/subagents/apply/capture-gate.js";
import { type RunResult, tandem } from "../helpers/cli.js";
import { cli } from "../helpers/in-process-cli.js";
import { g, initRepo, tempDir } from "../helpers/repo.js";

export interface SubRepo {
  root: string;
  repo: string;
  base: string;
}

/** A repository whose config carries an identity, so children and `git am` can commit. */
export function subRepo(
  files: Record<string, string> = { "README.md": "hello\n", "notes.txt": "notes\n" },
): SubRepo {
  const root = tempDir("tandem-sub-");
  const repo = initRepo(join(root, "repo"), files);
  g(repo, "config", "user.name", "Sub Test");
  g(repo, "config", "user.email", "sub@tandem.invalid");
  return { root, repo, base: g(repo, "rev-parse", "HEAD").trim() };
}

/** `tandem sub …` through the built binary. */
export function sub(cwd: string, args: string[], env: Record<string, string | undefined> = {}): RunResult {
  return tandem(["sub", ...args], { cwd, env });
}

/** `tandem sub …` in this process (test/helpers/in-process-cli.ts); crash points need `sub`. */
export function subHere(
  cwd: string,
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<RunResult> {
  return cli(["sub", ...args], { cwd, env });
}

export interface RunJson {
  id: string;
  name: string | null;
  branch: string;
  worktree: string;
  base: string;
  head: string | null;
  childExitCode: number | null;
  capture: {
    id: string;
    commitCount: number;
    hadUncommittedChanges: boolean;
    worktreePatchBytes: number;
    uncaptured: { reason: string; paths: string[] }[];
  } | null;
  applied: Record<string, unknown> | null;
}

/** `sub run --json -- sh -c SCRIPT`; stdout must be exactly one JSON object. */
export function runScript(
  cwd: string,
  script: string,
  extra: string[] = [],
  env: Record<string, string | undefined> = {},
): { res: RunResult; json: RunJson } {
  const res = sub(cwd, ["run", "--json", ...extra, "--", "sh", "-c", script], env);
  return { res, json: parseRun(res) };
}

/** `runScript` in this process. */
export async function runScriptHere(
  cwd: string,
  script: string,
  extra: string[] = [],
  env: Record<string, string | undefined> = {},
): Promise<{ res: RunResult; json: RunJson }> {
  const res = await subHere(cwd, ["run", "--json", ...extra, "--", "sh", "-c", script], env);
  return { res, json: parseRun(res) };
}

function parseRun(res: RunResult): RunJson {
  try {
    return JSON.parse(res.stdout) as RunJson;
  } catch {
    throw new Error(`sub run printed no JSON (exit ${res.code}): ${res.stdout}\n${res.stderr}`);
  }
}

/** A second checkout of the repository at `base`, to apply into. */
export function addTarget(s: SubRepo, name: string, at = s.base): string {
  const dir = join(s.root, name);
  g(s.repo, "worktree", "add", "-q", "-b", `target-${name}`, dir, at);
  return dir;
}

const sha = (b: Buffer | string) => createHash("sha256").update(b).digest("hex").slice(0, 16);

/**
 * Everything that defines a target's state, independent of where it lives and
 * when commits were made: the history since the base (subjects and trees), the
 * staged and unstaged diffs, and the untracked files with their content.
 */
export function targetState(dir: string, base: string) {
  const log = git(dir, ["log", "--reverse", "--format=%s %T", `${base}..HEAD`]).trim();
  const untracked = splitZ(git(dir, ["ls-files", "-z", "--others", "--exclude-standard"])).sort();
  return {
    log: log ? log.split("\n") : [],
    staged: git(dir, ["diff", "--cached", "--binary", "--full-index"]),
    unstaged: git(dir, ["diff", "--binary", "--full-index"]),
    untracked: Object.fromEntries(untracked.map((p) => [p, sha(readFileSync(join(dir, p)))])),
    status: git(dir, ["status", "--porcelain=v1", "--untracked-files=all"]),
  };
}

export function stagedNames(dir: string): string[] {
  return splitZ(git(dir, ["diff", "--cached", "--name-only", "-z"])).sort();
}

export function expectOk(r: RunResult): void {
  expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
}

/** The child-state facts of a capture of finished work (capture-gate tests cover the other states). */
export function finishedChild(worktree: string, subId = "sub_1"): ChildStateFacts {
  return {
    inProgress: null,
    conflictMarkers: [],
    allowInProgress: false,
    allowConflictMarkers: false,
    worktree,
    branch: "b",
    subId,
    printer: PLAIN,
  };
}
