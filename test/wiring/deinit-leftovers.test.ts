/**
 * Issue 26 §5: `tandem deinit` must not leave an empty `.github/` behind, and must say what it does
 * not undo: a resident server still running, and the refs Tandem pushed to the remote.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PIN, PINNED, tandem } from "../helpers/cli.js";
import { claudeWrite, denied, fakeAgent, hook } from "../helpers/hooks.js";
import { g, initRepo, tempDir } from "../helpers/repo.js";
import { bareWorld } from "../remote/remote-world.js";
import { startServer } from "../server/support.js";
import { run } from "./helpers.js";

describe("tandem deinit", () => {
  it("removes the .github/ it emptied", () => {
    const dir = initRepo(join(tempDir(), "repo"));
    expect(run(["init", ...PIN], dir).code).toBe(0);
    expect(existsSync(join(dir, ".github/hooks/tandem.json"))).toBe(true);
    expect(run(["deinit"], dir).code).toBe(0);
    for (const d of [".github", ".claude", ".codex", ".cursor", ".gemini"])
      expect(existsSync(join(dir, d)), d).toBe(false);
  });

  it("keeps a .github/ that holds the project's own files", () => {
    const dir = initRepo(join(tempDir(), "repo"), { ".github/workflows/ci.yml": "on: push\n" });
    mkdirSync(join(dir, ".github/empty-before"), { recursive: true });
    expect(run(["init", ...PIN], dir).code).toBe(0);
    expect(run(["deinit"], dir).code).toBe(0);
    expect(existsSync(join(dir, ".github/hooks"))).toBe(false);
    expect(existsSync(join(dir, ".github/workflows/ci.yml"))).toBe(true);
    expect(existsSync(join(dir, ".github/empty-before"))).toBe(true);
  });

  it("says a server still runs and how to stop it, and says nothing of one when none runs", async () => {
    const dir = initRepo(join(tempDir(), "repo"));
    expect(run(["init", ...PIN], dir).code).toBe(0);
    const quiet = run(["deinit", "--dry-run"], dir);
    expect(quiet.stdout).not.toMatch(/serve --stop/);
    await startServer(dir);
    const res = run(["deinit"], dir);
    expect(res.code).toBe(0);
    // Spelled with the launcher init recorded, here a pinned one (decision 0051).
    expect(res.stdout).toMatch(/server for this repository is still running/);
    expect(res.stdout).toContain(`\`${PINNED} serve --stop\` stops it now`);
  });

  it("says how to delete the refs/tandem/* Tandem pushed to the remote, without touching them", () => {
    const world = bareWorld((base) => `file://${base}`);
    const repo = world.clone("a");
    expect(run(["init", ...PIN], repo).code).toBe(0);
    expect(run(["deinit", "--dry-run"], repo).stdout).not.toMatch(/refs\/tandem/);
    const agent = fakeAgent();
    const env = { TANDEM_SERVER: "0", TANDEM_REMOTE: "0" };
    expect(
      denied(
        hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "f.txt"), {
          cwd: repo,
          env: { ...agent, ...env },
        }),
      ),
    ).toBeNull();
    expect(tandem(["sync"], { cwd: repo, env }).code).toBe(0);
    const pushed = g(repo, "ls-remote", "origin", "refs/tandem/*");
    expect(pushed).toMatch(/refs\/tandem\//);

    const res = run(["deinit"], repo, env);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/stay on origin under refs\/tandem\/\*/);
    expect(res.stdout).toMatch(/git push origin --delete REF/);
    expect(g(repo, "ls-remote", "origin", "refs/tandem/*")).toBe(pushed);
  });
});
