import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { launcherWords } from "../../src/clients/launcher-words.js";
import { GIT_HOOK_NAMES } from "../../src/core/git/hook-names.js";
import { launcherProblem } from "../../src/doctor/wiring-checks.js";
import { ensureClients } from "../e2e/harness/install-clients.js";
import { writeCodexConfig } from "../e2e/harness/run-codex.js";
import { PIN, TANDEM_BIN, tandem } from "../helpers/cli.js";
import { claudeWrite, fakeAgent, hook } from "../helpers/hooks.js";
import { initRepo, tempDir } from "../helpers/repo.js";

const NO_CODEX = { PATH: "/usr/bin:/bin" };

function wired(clients = "claude-code,codex,cursor") {
  const repo = initRepo(join(tempDir(), "repo"));
  expect(tandem(["init", ...PIN, "--clients", clients], { cwd: repo, env: NO_CODEX }).code).toBe(0);
  return repo;
}

function doctor(repo: string, env: Record<string, string> = NO_CODEX) {
  const r = tandem(["doctor", "--json"], { cwd: repo, env });
  return {
    code: r.code,
    checks: (
      JSON.parse(r.stdout) as { checks: { level: string; check: string; detail: string; fix?: string }[] }
    ).checks,
  };
}

const problems = (checks: { level: string; detail: string }[]) =>
  checks.filter((c) => c.level === "problem").map((c) => c.detail);

describe("tandem doctor", () => {
  it("finds nothing wrong right after tandem init", () => {
    const repo = wired();
    const r = tandem(["doctor"], { cwd: repo, env: NO_CODEX });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/✓ hook command: the hooks call .*, which resolves/);
    expect(r.stdout).toMatch(
      /✓ client hooks: claude-code, codex, cursor and the git hooks are wired and current/,
    );
    expect(r.stdout).toMatch(/No problems found\./);
  });

  it("detects a missing client hook and says how to fix it", () => {
    const repo = wired();
    const file = join(repo, ".claude", "settings.json");
    const settings = JSON.parse(readFileSync(file, "utf8"));
    delete settings.hooks.Stop;
    writeFileSync(file, JSON.stringify(settings, null, 2));
    const d = doctor(repo);
    expect(d.code).toBe(1);
    expect(problems(d.checks)).toEqual([".claude/settings.json: Stop hook missing"]);
    expect(d.checks.find((c) => c.level === "problem")!.fix).toMatch(/`.+ init`/);
  });

  it("detects a stale hook command whose Tandem no longer exists", () => {
    const repo = initRepo(join(tempDir(), "repo"));
    expect(
      tandem(["init", "--clients", "claude-code", "--command", `node '${repo}/gone/tandem.cjs'`], {
        cwd: repo,
        env: NO_CODEX,
      }).code,
    ).toBe(0);
    const d = doctor(repo);
    expect(d.code).toBe(1);
    expect(problems(d.checks)).toEqual([
      expect.stringMatching(
        /the hooks call `node '.*gone\/tandem\.cjs'`, but .*gone\/tandem\.cjs does not exist/,
      ),
    ]);
    // The agents' own shell cannot start it either: they are told the repository launcher instead.
    expect(d.checks.find((c) => c.check === "agent shell")).toMatchObject({
      level: "ok",
      detail: expect.stringMatching(
        /gone\/tandem\.cjs.* fails in the repository .*so agents run \S+\/\.git\/tandem\/bin\/tandem/,
      ),
    });
  });

  it("detects missing git hooks", () => {
    const repo = wired("claude-code");
    rmSync(join(repo, ".git", "hooks", "post-commit"));
    const d = doctor(repo);
    expect(problems(d.checks)).toEqual([expect.stringMatching(/post-commit: missing$/)]);
  });

  it("reports stale sessions that still hold claims, with how to release them", () => {
    const repo = wired("claude-code");
    hook("claude-code", "pre-tool-use", claudeWrite(repo, "old", "a.txt"), { cwd: repo, env: fakeAgent() });
    const r = tandem(["doctor"], { cwd: repo, env: { ...NO_CODEX, TANDEM_FRESHNESS: "1" } });
    // The stand-in agent process still runs, so the session is live: no stale finding.
    expect(r.stdout).not.toMatch(/is stale/);
  });

  it("reports Codex hooks the real Codex has not trusted yet", async () => {
    const bins = await ensureClients();
    const repo = wired("codex");
    const bin = join(repo, "..", "bin");
    mkdirSync(bin);
    symlinkSync(bins.codex, join(bin, "codex"));
    const codexHome = join(repo, "..", "codex-home");
    writeCodexConfig({ codexHome, baseUrl: "http://127.0.0.1:9/v1", cwd: repo });
    const d = doctor(repo, { PATH: `${bin}:/usr/bin:/bin`, CODEX_HOME: codexHome });
    expect(d.code).toBe(1);
    const trust = d.checks.find((c) => c.check === "codex trust")!;
    expect(trust).toMatchObject({ level: "problem" });
    expect(trust.detail).toMatch(/6 of 6 Tandem hooks need review/);
    expect(trust.fix).toMatch(/\/hooks/);
  });
});

describe("doctor compares the wiring with the choice init recorded", () => {
  /** A repository where `launcher` starts this build: `tandem` on PATH, or the devDependency bin. */
  function wiredWith(launcher: string, clients: string) {
    const repo = initRepo(join(tempDir(), "repo"));
    const bin = join(repo, "..", "bin");
    mkdirSync(bin);
    symlinkSync(TANDEM_BIN, join(bin, "tandem"));
    mkdirSync(join(repo, "node_modules", ".bin"), { recursive: true });
    symlinkSync(TANDEM_BIN, join(repo, "node_modules", ".bin", "tandem"));
    // Installed the way a login shell (an agent's shell tool) finds it too.
    const home = join(repo, "..", "home");
    mkdirSync(home);
    writeFileSync(join(home, ".profile"), `PATH="${bin}:$PATH"\n`);
    const env = { PATH: `${bin}:/usr/bin:/bin`, HOME: home };
    const init = tandem(["init", "--command", launcher, "--clients", clients], { cwd: repo, env });
    expect(init.code, init.stderr).toBe(0);
    return { repo, env };
  }

  it.each([
    ["tandem", "claude-code", /✓ client hooks: claude-code and the git hooks are wired and current/],
    [
      "node_modules/.bin/tandem",
      "claude-code,codex,cursor",
      /✓ client hooks: claude-code, codex, cursor and the git hooks are wired and current/,
    ],
  ])("after init --command %s --clients %s, reports no drift", (launcher, clients, current) => {
    const { repo, env } = wiredWith(launcher, clients);
    const r = tandem(["doctor"], { cwd: repo, env });
    expect(r.stdout).toMatch(new RegExp(`✓ hook command: the hooks call \`${launcher}\`, which resolves`));
    expect(r.stdout).toMatch(current);
    expect(r.stdout).toContain("No problems found.");
    expect(r.code).toBe(0);
  });

  it("reports a hand edit of the settings file as drift from the recorded launcher, fixed by plain init", () => {
    const { repo, env } = wiredWith("node_modules/.bin/tandem", "claude-code");
    const file = join(repo, ".claude", "settings.json");
    const settings = JSON.parse(readFileSync(file, "utf8"));
    settings.hooks.Stop[0].hooks[0].command = "tandem hook claude-code stop";
    writeFileSync(file, JSON.stringify(settings, null, 2));
    const d = doctor(repo, env);
    expect(d.code).toBe(1);
    expect(problems(d.checks)).toContain(
      '.claude/settings.json: Stop hook differs: command is "tandem hook claude-code stop", want "\\"$CLAUDE_PROJECT_DIR\\"/node_modules/.bin/tandem hook claude-code stop"',
    );
    const fix = d.checks.find((c) => c.level === "problem")!.fix;
    // A devDependency's person runs `npx tandem` (decision 0051).
    expect(fix).toMatch(/^run `npx tandem init`: it rewires with the launcher .tandem\/config.jsonc records/);
    expect(tandem(["init"], { cwd: repo, env }).code).toBe(0);
    expect(doctor(repo, env).code).toBe(0);
  });

  it("does not ask for git hooks that init was told to leave out", () => {
    const { repo, env } = wiredWith("tandem", "cursor");
    expect(tandem(["init", "--no-git-hooks"], { cwd: repo, env }).code).toBe(0);
    for (const h of GIT_HOOK_NAMES) rmSync(join(repo, ".git", "hooks", h), { force: true });
    const r = tandem(["doctor"], { cwd: repo, env });
    expect(r.stdout).toMatch(/✓ client hooks: cursor are wired and current/);
    expect(r.code).toBe(0);
  });
});

describe("launcher resolution", () => {
  it.each([
    [`'/usr/bin/node' '/x y/tandem.cjs'`, ["/usr/bin/node", "/x y/tandem.cjs"]],
    [`"/a b/node" tandem`, ["/a b/node", "tandem"]],
    [`npx tandem`, ["npx", "tandem"]],
  ])("splits %s", (launcher, words) => {
    expect(launcherWords(launcher)).toEqual(words);
  });

  it("explains a launcher that is not on PATH", () => {
    expect(launcherProblem("tandem", "/", { PATH: "/nonexistent" })).toBe("`tandem` is not on PATH");
  });
});
