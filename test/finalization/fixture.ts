/** Shared set-up for the end-turn scenarios: real repositories, bare remotes, the built binary. */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { Findings } from "../../src/core/finalization/verdict.js";
import { openDb } from "../../src/store/db.js";
import { raw } from "../../src/store/handle.js";
import { type RunResult, tandem } from "../helpers/cli.js";
import { claudeBash, claudeWrite, denied, hook, type Payload } from "../helpers/hooks.js";
import { hook as hookHere } from "../helpers/in-process.js";
import { cli } from "../helpers/in-process-cli.js";
import { g, initRepo, writeFiles } from "../helpers/repo.js";

export interface EndTurn {
  code: number;
  json: { ok: boolean; findings: Findings; status: Record<string, unknown> | null };
}

/** `tandem status --end-turn --json --session <native id>`, parsed. */
export function endTurn(cwd: string, session: string, env: Record<string, string> = {}): EndTurn {
  const r = tandem(["status", "--end-turn", "--json", "--session", session], { cwd, env });
  expect(r.stderr).toBe("");
  return { code: r.code, json: JSON.parse(r.stdout) };
}

/** The same check without --json: the human-facing form. */
export function endTurnText(cwd: string, session: string, env: Record<string, string> = {}): RunResult {
  return tandem(["status", "--end-turn", "--session", session], { cwd, env });
}

/**
 * The same checks answered in this process (test/helpers/in-process-cli.ts). Not for a `PATH` shim:
 * git inherits this process's variables, not the call's, so a shimmed check keeps `endTurn`.
 */
export async function endTurnHere(
  cwd: string,
  session: string,
  env: Record<string, string> = {},
): Promise<EndTurn> {
  if (env.PATH !== undefined) throw new Error("endTurnHere: git would not see this PATH; use endTurn");
  const r = await cli(["status", "--end-turn", "--json", "--session", session], { cwd, env });
  expect(r.stderr).toBe("");
  return { code: r.code, json: JSON.parse(r.stdout) };
}

export function endTurnTextHere(
  cwd: string,
  session: string,
  env: Record<string, string> = {},
): Promise<RunResult> {
  if (env.PATH !== undefined)
    throw new Error("endTurnTextHere: git would not see this PATH; use endTurnText");
  return cli(["status", "--end-turn", "--session", session], { cwd, env });
}

/** Only the findings that are present, so an assertion names exactly what failed. */
export function problems(f: Findings): Partial<Findings> {
  const out: Partial<Findings> = {};
  for (const [k, v] of Object.entries(f) as [keyof Findings, unknown][]) {
    if (Array.isArray(v) ? v.length > 0 : v === true) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

/** Claims `file` for `session` through the real Claude Code pre-tool-use hook, then writes it. */
export function write(root: string, session: string, file: string, content = "x\n", cwd = root): void {
  const r = hook("claude-code", "pre-tool-use", claudeWrite(root, session, file, content), { cwd });
  expect(denied(r)).toBeNull();
  writeFiles(root, { [file]: content });
}

/** `write` with the hook answered in this process (test/helpers/in-process.ts). */
export async function writeHere(root: string, session: string, file: string, content = "x\n", cwd = root) {
  const r = await hookHere("claude-code", "pre-tool-use", claudeWrite(root, session, file, content), { cwd });
  expect(denied(r)).toBeNull();
  writeFiles(root, { [file]: content });
}

/** A Claude Write whose file_path is given verbatim (relative, absolute, or a WSL UNC path). */
export function writeAs(
  root: string,
  session: string,
  filePath: string,
  env: Record<string, string> = {},
): RunResult {
  const payload: Payload = {
    ...claudeWrite(root, session, "x"),
    tool_input: { file_path: filePath, content: "x" },
  };
  return hook("claude-code", "pre-tool-use", payload, { cwd: root, env });
}

/** An opaque shell command run between real pre- and post-tool-use Bash hooks. */
export function shell(root: string, session: string, command: string): void {
  expect(
    denied(hook("claude-code", "pre-tool-use", claudeBash(root, session, command), { cwd: root })),
  ).toBeNull();
  const run = spawnSync("sh", ["-c", command], { cwd: root, encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  hook("claude-code", "post-tool-use", claudeBash(root, session, command, "PostToolUse"), { cwd: root });
}

/** `shell` with both hooks answered in this process. */
export async function shellHere(root: string, session: string, command: string): Promise<void> {
  const pre = await hookHere("claude-code", "pre-tool-use", claudeBash(root, session, command), {
    cwd: root,
  });
  expect(denied(pre)).toBeNull();
  const run = spawnSync("sh", ["-c", command], { cwd: root, encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  await hookHere("claude-code", "post-tool-use", claudeBash(root, session, command, "PostToolUse"), {
    cwd: root,
  });
}

export function commit(repo: string, message: string, ...paths: string[]): void {
  g(repo, "add", "--", ...(paths.length ? paths : ["."]));
  g(repo, "commit", "-q", "-m", message);
}

/** A bare remote with one commit, and a clone of it tracking `origin/main`. */
export function clonedRepo(base: string, name: string): { repo: string; remote: string } {
  const remote = join(base, `${name}.git`);
  const seed = initRepo(join(base, `${name}-seed`), { "README.md": `${name}\n` });
  g(base, "init", "-q", "--bare", "-b", "main", remote);
  g(seed, "push", "-q", remote, "main");
  const repo = join(base, name);
  g(base, "clone", "-q", remote, repo);
  return { repo, remote };
}

/** A superproject with a remote and one submodule `sub`, both pushed. */
export function superWithSub(base: string): { sup: string; sub: string } {
  const { repo: sup } = clonedRepo(base, "super");
  const { remote: subRemote } = clonedRepo(base, "lib");
  g(sup, "submodule", "add", "-q", subRemote, "sub");
  g(sup, "commit", "-q", "-m", "add submodule");
  g(sup, "push", "-q");
  return { sup, sub: join(sup, "sub") };
}

export function config(root: string, agents: Record<string, unknown>): void {
  mkdirSync(join(root, ".tandem"), { recursive: true });
  writeFileSync(join(root, ".tandem", "config.jsonc"), JSON.stringify({ agents }, null, 2));
  // The config is committed project policy; keeping it out of the way keeps "nobody's dirt" minimal.
  if (existsSync(join(root, ".git"))) writeFileSync(join(root, ".git", "info", "exclude"), ".tandem/\n");
}

export function events(root: string): { kind: string; data: unknown }[] {
  const db = openDb(join(root, ".git", "tandem"));
  try {
    return raw(db)
      .prepare("SELECT kind, data FROM events ORDER BY seq")
      .all()
      .map((r) => {
        const row = r as { kind: string; data: string };
        return { kind: row.kind, data: JSON.parse(row.data) };
      });
  } finally {
    db.close();
  }
}

export function statusEvents(root: string): unknown[] {
  return events(root)
    .filter((e) => e.kind === "status.checked")
    .map((e) => e.data);
}

/**
 * A `git` on PATH that logs where it runs ($PWD) and with what arguments, then runs the real one:
 * proof of where Tandem did, and did not, run git.
 */
export function gitShim(dir: string): { env: Record<string, string>; calls: () => string[] } {
  const real = spawnSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).stdout.trim();
  const bin = join(dir, "shim-bin");
  const log = join(dir, "git-calls.log");
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    join(bin, "git"),
    // A call stopped at once (an early status Tandem no longer wants) is still logged: the stop's
    // SIGTERM is ignored until the line is written.
    `#!/bin/sh\ntrap '' TERM\nprintf '%s\\t%s\\n' "$(pwd -P)" "$*" >> "${log}"\ntrap - TERM\nexec "${real}" "$@"\n`,
  );
  chmodSync(join(bin, "git"), 0o755);
  return {
    env: { PATH: `${bin}:${process.env.PATH ?? ""}` },
    calls: () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []),
  };
}
