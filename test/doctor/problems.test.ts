import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hookErrorFinding, parseSince } from "../../src/doctor/hook-errors.js";
import { PIN } from "../helpers/cli.js";
import { hook } from "../helpers/in-process.js";
import { cli } from "../helpers/in-process-cli.js";
import { initRepo, tempDir, writeFiles } from "../helpers/repo.js";

const NO_CODEX = { PATH: "/usr/bin:/bin" };

async function wired(): Promise<string> {
  const repo = initRepo(join(tempDir(), "repo"));
  const init = await cli(["init", ...PIN, "--clients", "claude-code"], { cwd: repo, env: NO_CODEX });
  expect(init.code).toBe(0);
  return repo;
}

describe("tandem doctor reports every problem it lists", () => {
  it("reports hook errors of the last day with the newest message and the events command", async () => {
    const repo = await wired();
    await hook("claude-code", "pre-tool-use", "{not json", { cwd: repo });
    const r = await cli(["doctor"], { cwd: repo, env: NO_CODEX });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ hook errors: 1 hook error\(s\) since .*; newest at .*payload is not JSON/);
    // Spelled with the launcher the wired repository records (decision 0051).
    expect(r.stdout).toMatch(/`\S.* events --kind hook\.error`/);
    expect(r.stdout).not.toContain("No problems found");
  });

  it("no longer counts hook errors older than --since", async () => {
    const repo = await wired();
    await hook("claude-code", "pre-tool-use", "{not json", { cwd: repo });
    const later = new Date(Date.now() + 60_000).toISOString();
    const r = await cli(["doctor", "--since", later], { cwd: repo, env: NO_CODEX });
    expect(r.stdout).toMatch(/✓ hook errors: none since/);
    expect(r.code).toBe(0);
  });

  it("refuses a --since it cannot read and says what it accepts", async () => {
    const repo = await wired();
    const r = await cli(["doctor", "--since", "yesterdayish"], { cwd: repo, env: NO_CODEX });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/neither a duration .* nor a date\/time; try `\S.* doctor --since 24h`/);
  });

  it("reports a repository where init never ran, with the command to run", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    const r = await cli(["doctor"], { cwd: repo, env: NO_CODEX });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ init: no client calls Tandem's hooks here: init has not run/);
    expect(r.stdout).toMatch(/fix: run `tandem init` \(once per clone/);
  });

  it("reads a .claude/settings.json with // comments as wired", async () => {
    const repo = await wired();
    const file = join(repo, ".claude", "settings.json");
    writeFileSync(file, `// team settings\n${readFileSync(file, "utf8")}`);
    const r = await cli(["doctor"], { cwd: repo, env: NO_CODEX });
    expect(r.stdout).not.toMatch(/claude-code: not wired/);
    expect(r.stdout).toMatch(/✓ client hooks: claude-code and the git hooks are wired and current/);
    expect(r.code).toBe(0);
  });

  it("still reports a broken config and exits 1", async () => {
    const repo = await wired();
    writeFiles(repo, { ".tandem/config.jsonc": '{ "freshnessSeconds": "soon" }' });
    const r = await cli(["doctor"], { cwd: repo, env: NO_CODEX });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ config: .*freshnessSeconds/);
  });

  it("exits 0 with no problems right after init", async () => {
    const r = await cli(["doctor"], { cwd: await wired(), env: NO_CODEX });
    expect(r.stdout).toMatch(/✓ hook errors: none since/);
    expect(r.stdout).toMatch(/No problems found\./);
    expect(r.code).toBe(0);
  });
});

describe("doctor's hook error decisions", () => {
  const now = Date.parse("2026-03-01T12:00:00Z");
  it.each([
    ["30m", now - 30 * 60_000],
    ["2h", now - 2 * 3_600_000],
    ["7d", now - 7 * 86_400_000],
    ["2026-02-28T09:00:00Z", Date.parse("2026-02-28T09:00:00Z")],
    ["soonish", null],
    ["5y", null],
  ])("reads --since %s", (text, expected) => {
    expect(parseSince(text, now)).toBe(expected);
  });

  it("names the count and the newest error, whatever the order", () => {
    const f = hookErrorFinding(
      [
        { ts: now - 10, message: "newest" },
        { ts: now - 100, message: "older" },
      ],
      now - 1000,
    );
    expect(f).toMatchObject({ level: "problem", check: "hook errors" });
    expect(f.detail).toMatch(/^2 hook error\(s\) since .*: newest$/);
  });

  it("is fine with no errors", () => {
    expect(hookErrorFinding([], now).level).toBe("ok");
  });
});
