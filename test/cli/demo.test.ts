import { existsSync, readdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { tandem } from "../helpers/cli.js";
import { tempDir } from "../helpers/repo.js";

describe("tandem demo", () => {
  it("walks through every step end to end, each behaving as expected, and cleans up", () => {
    const state = tempDir("tandem-state-");
    const r = tandem(["demo"], { cwd: tempDir(), env: { XDG_STATE_HOME: state } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // The sub-agent's worktree must not outlive the demo in the user's state home.
    expect(readdirSync(state)).toEqual([]);
    const steps = r.stdout.split("\n").filter((l) => /^[✓✗] \d+\. /.test(l));
    expect(steps).toHaveLength(10);
    expect(steps.every((l) => l.startsWith("✓"))).toBe(true);
    expect(r.stdout).toMatch(/✓ 3\. .*refused\n {4}Tandem refused this edit/);
    expect(r.stdout).toMatch(/✓ 5\. .*\n {4}tandem: end-turn check failed/);
    expect(r.stdout).toMatch(/✓ 6\. .*\n {4}\+-- tandem status: agent-/);
    expect(r.stdout).toMatch(/All 10 steps behaved as expected\.\n$/);
    const repo = /^Tandem demo in (\S+)/.exec(r.stdout)![1]!;
    expect(existsSync(dirname(repo))).toBe(false);
  });

  it("--keep leaves the repository for inspection", () => {
    const r = tandem(["demo", "--keep"], { cwd: tempDir() });
    expect(r.code).toBe(0);
    const repo = /The demo repository was kept: (\S+)/.exec(r.stdout)![1]!;
    expect(existsSync(`${repo}/.git/tandem/state.db`)).toBe(true);
    rmSync(dirname(repo), { recursive: true, force: true });
  });
});
