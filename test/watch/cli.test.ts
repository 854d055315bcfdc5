import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tandem } from "../helpers/cli.js";
import { claudeWrite, fakeAgent, hook } from "../helpers/hooks.js";
import { initRepo, tempDir } from "../helpers/repo.js";

describe("tandem watch without a terminal", () => {
  it("prints one snapshot without escape codes and exits 0", () => {
    const repo = initRepo(join(tempDir(), "repo"));
    hook("claude-code", "pre-tool-use", claudeWrite(repo, "one", "src/a.ts"), {
      cwd: repo,
      env: fakeAgent(),
    });
    const r = tandem(["watch"], { cwd: repo, env: { COLUMNS: "90" } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).not.toContain("\x1b");
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(new RegExp(`^tandem watch ${repo} +\\d\\d:\\d\\d:\\d\\d$`));
    expect(lines.at(-1)).toMatch(/^q quit +event #\d+, \d+s ago$/);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(90);
    expect(r.stdout).toMatch(/src\/a\.ts +-> +agent-\w+ +live/);
    expect(r.stdout).toMatch(/claim\.acquired +src\/a\.ts/);
  });

  it("shows the empty board with its hint, and creates no store, in a repository without one", () => {
    const repo = initRepo(join(tempDir(), "repo"));
    const r = tandem(["watch", "--once"], { cwd: repo });
    expect(r.code).toBe(0);
    expect(r.stdout.replace(/\s+/g, " ")).toContain("No sessions yet. A session appears when an agent");
    expect(existsSync(join(repo, ".git", "tandem", "state.db"))).toBe(false);
  });

  it("rejects a bad --interval or --events as usage (exit 2)", () => {
    const repo = initRepo(join(tempDir(), "repo"));
    for (const args of [
      ["--interval", "0"],
      ["--interval", "fast"],
      ["--events", "-1"],
    ]) {
      const r = tandem(["watch", ...args], { cwd: repo });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^tandem: .*expected .* from \d+ to \d+/);
    }
  });

  it("has help with examples and the non-terminal behaviour", () => {
    const r = tandem(["watch", "--help"], { cwd: tempDir() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("--interval <ms>");
    expect(r.stdout).toContain("--once");
    expect(r.stdout).toContain("Examples:\n  tandem watch\n");
    expect(r.stdout).toMatch(/not\s+a terminal .* it prints one snapshot and exits 0/s);
  });
});
