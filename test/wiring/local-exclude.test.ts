/**
 * Issue 26 §5: `.claude/settings.local.json` holds this machine's absolute allow rules; init must
 * make git ignore it in this clone (so `git add -A` never stages it), and deinit undo exactly that.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXCLUDE_MARK, withExclude, withoutExclude } from "../../src/wiring/local-exclude.js";
import { initRepo, tempDir } from "../helpers/repo.js";
import { loginTandem, read, run, tandemShim } from "./helpers.js";

const DEV_DEPENDENCY = [
  "--command",
  "node_modules/.bin/tandem",
  "--clients",
  "claude-code",
  "--no-git-hooks",
];

function porcelain(dir: string): string[] {
  const out = execFileSync("git", ["status", "--porcelain", "-z", "--untracked-files=all"], { cwd: dir });
  return out.toString("utf8").split("\0").filter(Boolean);
}

function exclude(dir: string): string {
  return readFileSync(join(dir, ".git", "info", "exclude"), "utf8");
}

describe("the local Claude settings and git", () => {
  it("init makes git ignore the local settings in this clone, once; deinit restores the exclude file", () => {
    const dir = initRepo(join(tempDir(), "repo"));
    const before = read(join(dir, ".git", "info", "exclude")) ?? "";
    tandemShim(join(dir, "node_modules", ".bin"));
    const init = run(["init", ...DEV_DEPENDENCY], dir);
    expect(init.code).toBe(0);
    expect(existsSync(join(dir, ".claude/settings.local.json"))).toBe(true);
    const status = porcelain(dir);
    expect(status).toContain("?? .claude/settings.json");
    expect(status).not.toContain("?? .claude/settings.local.json");
    expect(init.stdout).toMatch(/settings\.local\.json holds this machine's paths: git now ignores it/);

    // A second init finds it ignored already: no second copy of the lines.
    expect(run(["init"], dir).code).toBe(0);
    expect(exclude(dir).split(EXCLUDE_MARK)).toHaveLength(2);

    expect(run(["deinit"], dir).code).toBe(0);
    expect(existsSync(join(dir, ".claude/settings.local.json"))).toBe(false);
    expect(read(join(dir, ".git", "info", "exclude")) ?? "").toBe(before);
  });

  it("leaves the exclude file alone when the repository already ignores the file", () => {
    const dir = initRepo(join(tempDir(), "repo"), { ".gitignore": ".claude/settings.local.json\n" });
    const before = read(join(dir, ".git", "info", "exclude"));
    expect(run(["init", ...DEV_DEPENDENCY], dir).code).toBe(0);
    expect(existsSync(join(dir, ".claude/settings.local.json"))).toBe(true);
    expect(porcelain(dir)).not.toContain("?? .claude/settings.local.json");
    expect(read(join(dir, ".git", "info", "exclude"))).toBe(before);
  });

  it("adds nothing when init writes no local settings (a launcher on PATH)", () => {
    const dir = initRepo(join(tempDir(), "repo"));
    const before = read(join(dir, ".git", "info", "exclude"));
    const env = loginTandem();
    expect(
      run(["init", "--command", "tandem", "--clients", "claude-code", "--no-git-hooks"], dir, env).code,
    ).toBe(0);
    expect(read(join(dir, ".git", "info", "exclude"))).toBe(before);
  });
});

describe("init's lines in an exclude file", () => {
  const LINES = `${EXCLUDE_MARK}\n/.claude/settings.local.json\n`;
  it.each([
    ["an empty file", "", LINES],
    ["a file ending in a newline", "*.log\n", `*.log\n${LINES}`],
    ["a file without a final newline", "*.log", `*.log\n${LINES}`],
    ["a file that has them", `*.log\n${LINES}`, null],
  ])("are added to %s", (_what, text, want) => {
    expect(withExclude(text)).toBe(want);
  });

  it.each([
    ["init's pair", `*.log\n${LINES}`, "*.log\n"],
    ["the mark whose line someone edited", `${EXCLUDE_MARK}\n/x\n`, "/x\n"],
    ["a file without them", "/.claude/settings.local.json\n", null],
  ])("are removed as %s", (_what, text, want) => {
    expect(withoutExclude(text)).toBe(want);
  });

  it("removing what adding added gives the file back", () => {
    for (const text of ["", "*.log\n", "# x\n/y\n"]) expect(withoutExclude(withExclude(text)!)).toBe(text);
  });
});
