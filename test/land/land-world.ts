import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { LandResult } from "../../src/core/land/result.js";
import { openDb } from "../../src/store/db.js";
import { raw } from "../../src/store/handle.js";
import { TANDEM_BIN, tandem } from "../helpers/cli.js";
import { claudeWrite, denied, hook } from "../helpers/hooks.js";
import { g, writeFiles } from "../helpers/repo.js";
import { bareWorld, type World } from "../remote/remote-world.js";

/** A bare remote seeded with shared files, and clones of it with an identity to commit as. */
export function landWorld(): World & { checkout: (name: string) => string } {
  const world = bareWorld((base) => base);
  const seed = world.clone("seeder");
  writeFiles(seed, { "shared.txt": "one\ntwo\nthree\n", "notes.txt": "notes\n" });
  g(seed, "add", "--", "shared.txt", "notes.txt");
  g(seed, "commit", "-q", "-m", "seed shared files");
  g(seed, "push", "-q", "origin", "main");
  const checkout = (name: string) => {
    const dir = world.clone(name);
    g(dir, "config", "user.name", `Tester ${name}`);
    g(dir, "config", "user.email", `${name}@tandem.invalid`);
    return dir;
  };
  return { ...world, checkout };
}

export function commit(repo: string, files: Record<string, string>, message: string): string {
  writeFiles(repo, files);
  g(repo, "add", "--", ...Object.keys(files));
  g(repo, "commit", "-q", "-m", message);
  return g(repo, "rev-parse", "HEAD").trim();
}

/** An agent's uncommitted edit made through the real hooks: the claim, the write, the post-tool record. */
export function agentEdits(
  repo: string,
  session: string,
  env: Record<string, string>,
  file: string,
  bytes: string,
) {
  const payload = claudeWrite(repo, session, file, bytes);
  expect(denied(hook("claude-code", "pre-tool-use", payload, { cwd: repo, env }))).toBeNull();
  writeFileSync(join(repo, file), bytes);
  hook("claude-code", "post-tool-use", { ...payload, hook_event_name: "PostToolUse" }, { cwd: repo, env });
}

export function landJson(
  repo: string,
  env: Record<string, string> = {},
): { code: number; result: LandResult; stderr: string } {
  const r = tandem(["land", "--json"], { cwd: repo, env });
  if (!r.stdout.trim()) throw new Error(`tandem land printed nothing: ${r.stderr}`);
  return { code: r.code, result: JSON.parse(r.stdout) as LandResult, stderr: r.stderr };
}

/** `tandem land --json` as its own process, not waited for: landers that really overlap. */
export function landAsync(
  repo: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TANDEM_BIN, "land", "--json"], {
      cwd: repo,
      env: { ...process.env, XDG_CONFIG_HOME: "/nonexistent/tandem-test-xdg", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code, signal) =>
      resolve({ code: code ?? -1, stdout, stderr: signal ? `${stderr}(killed by ${signal})` : stderr }),
    );
  });
}

export const remoteHead = (w: World) => g(w.bare, "rev-parse", "main").trim();
export const head = (repo: string) => g(repo, "rev-parse", "HEAD").trim();
export const read = (repo: string, file: string) => readFileSync(join(repo, file), "utf8");

/** History of the remote branch has no merge commits. */
export function linear(w: World): boolean {
  return g(w.bare, "rev-list", "--merges", "main").trim() === "";
}

/** The Tandem name hooks gave the session with this native id. */
export function sessionName(repo: string, nativeId: string): string {
  const db = openDb(join(repo, ".git", "tandem"));
  try {
    return (
      raw(db).prepare("SELECT name FROM sessions WHERE native_id = ?").get(nativeId) as { name: string }
    ).name;
  } finally {
    db.close();
  }
}

/** Subjects of the remote branch, newest first. */
export const remoteSubjects = (w: World) => g(w.bare, "log", "--format=%s", "main").trim().split("\n");
