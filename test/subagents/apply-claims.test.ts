import { spawn } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TANDEM_BIN, tandem } from "../helpers/cli.js";
import { claudeBash, claudeWrite, denied, hook, ledger } from "../helpers/hooks.js";
import { g } from "../helpers/repo.js";
import { expectOk, runScript, sub, subRepo, targetState } from "./sub-fixture.js";

const SCENARIO = "echo hi > new.txt; git add -A; git commit -qm x; echo more > other.txt";

/** Registers a live Claude Code session through its real hook, claiming nothing. */
function session(repo: string, id: string): void {
  expect(denied(hook("claude-code", "pre-tool-use", claudeBash(repo, id, "true"), { cwd: repo }))).toBeNull();
}

/** How many times `path` was claimed, from the ledger. */
function claimEvents(repo: string, path: string): number {
  return ledger(repo).events.filter(
    (e) => e.kind === "claim.acquired" && (e.data as { path: string }).path === path,
  ).length;
}

describe("sub apply claims what it brings", () => {
  it("claims the applied commit's and patch's paths for the applying session, so its end-turn check sees other.txt", () => {
    const s = subRepo();
    session(s.repo, "S");
    const { json } = runScript(s.repo, SCENARIO);
    expectOk(sub(s.repo, ["apply", json.id, "--session", "S"]));
    expect(g(s.repo, "status", "--porcelain")).toBe("?? other.txt\n");
    const claims = tandem(["claims", "--all"], { cwd: s.repo });
    expect(claims.stdout).toContain("new.txt");
    expect(claims.stdout).toContain("other.txt");
    const end = tandem(["status", "--end-turn", "--session", "S"], { cwd: s.repo });
    expect(end.code).not.toBe(0);
    expect(`${end.stdout}${end.stderr}`).toContain("other.txt");
  });

  it("refuses, naming the path and its holder, when a live peer holds a path the capture brings, and changes nothing", () => {
    const s = subRepo();
    session(s.repo, "S");
    // P claims other.txt through its own pre-tool-use hook, without writing it yet.
    const p = hook("claude-code", "pre-tool-use", claudeWrite(s.repo, "P", "other.txt"), { cwd: s.repo });
    expect(denied(p)).toBeNull();
    const { json } = runScript(s.repo, SCENARIO);
    const before = targetState(s.repo, s.base);
    const dry = sub(s.repo, ["apply", json.id, "--session", "S", "--dry-run"]);
    const real = sub(s.repo, ["apply", json.id, "--session", "S"]);
    expect(real.code).toBe(1);
    expect(real.stderr).toMatch(/other\.txt \(held by \S+ \[ses_\w+\]\)/);
    expect(dry.code).toBe(1);
    expect(dry.stderr.replace("dry run: ", "")).toBe(real.stderr);
    expect(targetState(s.repo, s.base)).toEqual(before);
    expect(claimEvents(s.repo, "new.txt")).toBe(0);
  });

  it("applies as a person with no session without claiming anything", () => {
    const s = subRepo();
    const { json } = runScript(s.repo, SCENARIO);
    expectOk(sub(s.repo, ["apply", json.id]));
    expect(claimEvents(s.repo, "other.txt")).toBe(0);
    expect(ledger(s.repo).events.length).toBeGreaterThan(0);
  });
});

function applyAsync(cwd: string, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TANDEM_BIN, "sub", ...args], {
      cwd,
      env: { ...process.env, XDG_CONFIG_HOME: "/nonexistent/tandem-test-xdg" },
    });
    let out = "";
    child.stdout.on("data", (b) => (out += b));
    child.stderr.on("data", (b) => (out += b));
    child.on("close", (code) => resolve({ code: code ?? -1, out }));
  });
}

describe("concurrent sub apply", () => {
  it("applies once; every loser says which process applied it or is applying it, exits 1 and claims nothing", async () => {
    const s = subRepo();
    session(s.repo, "S");
    const { json } = runScript(s.repo, SCENARIO);
    // The winner's `git am` runs the target's hook: a slow one keeps the apply in progress.
    const hookFile = join(s.repo, ".git", "hooks", "post-applypatch");
    writeFileSync(hookFile, "#!/bin/sh\nsleep 2\n");
    chmodSync(hookFile, 0o755);
    const args = ["apply", json.id, "--session", "S"];
    const results = await Promise.all([0, 1, 2].map(() => applyAsync(s.repo, args)));
    const won = results.filter((r) => r.code === 0);
    const lost = results.filter((r) => r.code !== 0);
    expect(won, JSON.stringify(results)).toHaveLength(1);
    expect(won[0]?.out).toMatch(/applied 1 commit/);
    expect(lost).toHaveLength(2);
    for (const l of lost) {
      expect(l.code).toBe(1);
      expect(l.out).toMatch(
        /(in progress in another process \(pid \d+\)|applied by another process \(pid \d+, at [^)]+\)).*nothing was done here and nothing was claimed/,
      );
    }
    expect(g(s.repo, "log", "--format=%s", `${s.base}..HEAD`)).toBe("x\n");
    expect(readFileSync(join(s.repo, "other.txt"), "utf8")).toBe("more\n");
    expect(claimEvents(s.repo, "other.txt")).toBe(1);
  });
});
