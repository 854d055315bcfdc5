/**
 * Issue 26 §5: a person's `tandem status` in a repository never set up (no `.tandem/config.jsonc`,
 * no store) created `.git/tandem/state.db`, started a server and said "No problems.". It must say
 * Tandem is not set up here and create and start nothing; set-up repositories are unchanged.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PIN, tandem } from "../helpers/cli.js";
import { claudeWrite, fakeAgent, hook } from "../helpers/hooks.js";
import { initRepo, tempDir } from "../helpers/repo.js";
import { cleanEnv, run, THIN, watchServer } from "../server/support.js";

const state = (repo: string) => join(repo, ".git", "tandem");

describe("a person's tandem status in a repository never set up", () => {
  it("says Tandem is not set up and what to run, and creates no store and starts no server", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    watchServer(repo);
    const r = await run(THIN, ["status"], { cwd: repo, env: cleanEnv() });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Tandem is not set up in .*: no \.tandem\/config\.jsonc and no store/);
    expect(r.stdout).toMatch(/Run `tandem init` here/);
    expect(r.stdout).not.toMatch(/No problems/);
    expect(existsSync(state(repo))).toBe(false);
  });

  it("answers the same as data with --json", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    watchServer(repo);
    const r = await run(THIN, ["status", "--json"], { cwd: repo, env: cleanEnv() });
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: true,
      setUp: false,
      fix: expect.stringMatching(/tandem init/),
    });
    expect(existsSync(state(repo))).toBe(false);
  });

  // The on-demand start stamps its mark in the state directory, so with none it starts nothing.
  it("starts no server after another ritual command that found no store (claims)", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    watchServer(repo);
    const r = await run(THIN, ["claims"], { cwd: repo, env: cleanEnv() });
    expect(r.code).toBe(0);
    expect(existsSync(state(repo))).toBe(false);
  });
});

describe("tandem status where Tandem is set up", () => {
  it("gives a person the overview once init wrote the project config", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    expect(tandem(["init", ...PIN, "--no-git-hooks"], { cwd: repo, env: { TANDEM_SERVER: "0" } }).code).toBe(
      0,
    );
    const r = tandem(["status"], { cwd: repo, env: { ...cleanEnv(), TANDEM_SERVER: "0" } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Tandem in /);
    expect(r.stdout).not.toMatch(/not set up/);
  });

  it("gives an agent its status box in a repository its hooks used without init", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    watchServer(repo);
    const agent = fakeAgent();
    hook("claude-code", "pre-tool-use", claudeWrite(repo, "sess-A", "a.ts"), { cwd: repo, env: agent });
    const r = tandem(["status"], { cwd: repo, env: { ...cleanEnv(), CLAUDE_CODE_SESSION_ID: "sess-A" } });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/not set up/);
    expect(r.stdout).toMatch(/a\.ts/);
  });
});
