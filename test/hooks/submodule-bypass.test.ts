import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GIT_HOOK_NAMES } from "../../src/core/git/hook-names.js";
import { REGION_START } from "../../src/wiring/git-hooks.js";
import { shellQuote } from "../../src/wiring/hook-command.js";
import { agentShell, runInAgent } from "../helpers/agent-shell.js";
import { PIN, tandem } from "../helpers/cli.js";
import { claudeBash, claudeWrite, denied, ledger } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { g, initRepo, tempDir } from "../helpers/repo.js";
import { restorable } from "../helpers/scenario.js";

/** Issue 42 item 3: no bypass an agent can use, and a submodule's commits are checked too. */

const IDENTITY = {
  GIT_AUTHOR_NAME: "T",
  GIT_AUTHOR_EMAIL: "t@t",
  GIT_COMMITTER_NAME: "T",
  GIT_COMMITTER_EMAIL: "t@t",
};

/** A superproject `app` wired by `tandem init`, with the initialised submodule `vendor/lib`. */
function superproject(base = tempDir()) {
  const lib = initRepo(join(base, "lib"), { "x.c": "int x;\n", "y.c": "int y;\n" });
  const app = initRepo(join(base, "app"));
  g(app, "submodule", "add", "-q", lib, "vendor/lib");
  g(app, "commit", "-qm", "submodule");
  const sub = join(app, "vendor", "lib");
  const hooks = join(app, ".git", "modules", "vendor", "lib", "hooks");
  return { app, sub, hooks };
}

const env = (agent: { CLAUDE_PID: string }, extra: Record<string, string> = {}) => ({
  ...process.env,
  XDG_CONFIG_HOME: "/nonexistent/tandem-test-xdg",
  CLAUDE_PROJECT_DIR: undefined,
  ...IDENTITY,
  ...agent,
  ...extra,
});

describe("submodules of a wired repository get Tandem's git hooks", () => {
  it("init installs them in the submodule's own hooks dir; --check and doctor notice one missing; deinit removes them", () => {
    const { app, hooks } = superproject();
    expect(tandem(["init", ...PIN, "--clients", "claude-code"], { cwd: app }).code).toBe(0);
    for (const name of GIT_HOOK_NAMES)
      expect(readFileSync(join(hooks, name), "utf8")).toContain(REGION_START);
    expect(tandem(["init", ...PIN, "--clients", "claude-code", "--check"], { cwd: app }).code).toBe(0);

    rmSync(join(hooks, "pre-commit"));
    const check = tandem(["init", ...PIN, "--clients", "claude-code", "--check"], { cwd: app });
    expect(check.code).toBe(1);
    expect(check.stdout).toContain(join(".git", "modules", "vendor", "lib", "hooks", "pre-commit"));
    const doctor = tandem(["doctor"], { cwd: app });
    expect(doctor.stdout).toContain(join("modules", "vendor", "lib", "hooks", "pre-commit"));

    expect(tandem(["init", ...PIN, "--clients", "claude-code"], { cwd: app }).code).toBe(0);
    expect(readFileSync(join(hooks, "pre-commit"), "utf8")).toContain(REGION_START);
    expect(tandem(["deinit", "--clients", "claude-code"], { cwd: app }).code).toBe(0);
    for (const name of GIT_HOOK_NAMES) {
      const file = join(hooks, name);
      if (existsSync(file)) expect(readFileSync(file, "utf8")).not.toContain(REGION_START);
    }
  });
});

describe("an agent cannot commit a live peer's file, in a submodule or with TANDEM_BYPASS", () => {
  /**
   * A holds vendor/lib/x.c (claimed through its Write hook, then written); B is another live agent.
   * Built once per file; the superproject is put back at its path before each case (the submodule's
   * origin beside it is only read).
   */
  const peersInSubmodule = restorable("submodule-peers", async (base) => {
    const w = superproject(base);
    expect(tandem(["init", ...PIN, "--clients", "claude-code"], { cwd: w.app }).code).toBe(0);
    const A = agentShell();
    const B = agentShell();
    const a = await hook("claude-code", "pre-tool-use", claudeWrite(w.app, "A", "vendor/lib/x.c"), {
      cwd: w.app,
      env: A,
    });
    expect(denied(a)).toBeNull();
    writeFileSync(join(w.sub, "x.c"), "int x = 1; /* A's work */\n");
    const b = await hook("claude-code", "pre-tool-use", claudeWrite(w.app, "B", "vendor/lib/y.c"), {
      cwd: w.app,
      env: B,
    });
    expect(denied(b)).toBeNull();
    writeFileSync(join(w.sub, "y.c"), "int y = 2;\n");
    return { ...w, repo: w.app, A, B };
  });

  const commits = (sub: string) => g(sub, "rev-list", "--count", "HEAD").trim();

  it("B's `git -C vendor/lib commit -a` is refused by the submodule's pre-commit hook, with no bypass hint", async () => {
    const w = await peersInSubmodule();
    const before = commits(w.sub);
    const r = runInAgent(w.B, "git", ["-C", "vendor/lib", "commit", "-qam", "took A's file"], {
      cwd: w.app,
      env: env(w.B),
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/commit refused.*\n\s+x\.c \(held by agent-\w+\)/);
    expect(r.stderr).not.toContain("TANDEM_BYPASS");
    expect(commits(w.sub)).toBe(before);
  });

  it("B's TANDEM_BYPASS=1 is not honoured by the hook, and the attempt is recorded", async () => {
    const w = await peersInSubmodule();
    const before = commits(w.sub);
    const r = runInAgent(w.B, "git", ["commit", "-qam", "bypass"], {
      cwd: w.sub,
      env: env(w.B, { TANDEM_BYPASS: "1" }),
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("TANDEM_BYPASS=1 is not honoured inside an agent session");
    expect(commits(w.sub)).toBe(before);
    const guarded = ledger(w.app).events.filter((e) => e.kind === "commit.guarded");
    expect(guarded.map((e) => e.data)).toEqual([
      {
        outcome: "refused",
        paths: [{ path: "x.c", holder: expect.stringMatching(/^agent-/) }],
        bypassRefused: true,
      },
    ]);
  });

  it.each([
    "TANDEM_BYPASS=1 git -C vendor/lib commit -qam x",
    "cd vendor/lib && env TANDEM_BYPASS=1 git commit -qam x",
    "export TANDEM_BYPASS=1; git -C vendor/lib commit -qam x",
    "bash -c 'cd vendor/lib && TANDEM_BYPASS=1 git commit -qam x'",
  ])("the pre-tool hook refuses B's `%s` like --no-verify", async (command) => {
    const w = await peersInSubmodule();
    const r = await hook("claude-code", "pre-tool-use", claudeBash(w.app, "B", command), {
      cwd: w.app,
      env: w.B,
    });
    const reason = denied(r);
    expect(reason).toContain(
      "skips the pre-commit hook and would commit files another live agent is editing",
    );
    expect(reason).toContain("vendor/lib/x.c");
    expect(reason).toContain("TANDEM_BYPASS=1 git");
  });

  it("a submodule without Tandem's pre-commit: the pre-tool hook judges B's plain commit there like --no-verify", async () => {
    const w = await peersInSubmodule();
    const bash = async (command: string) =>
      denied(
        await hook("claude-code", "pre-tool-use", claudeBash(w.app, "B", command), { cwd: w.app, env: w.B }),
      );
    // With the hook in place the hook judges the commit: the pre-tool hook lets it run.
    expect(await bash("git -C vendor/lib commit -qam x")).toBeNull();
    rmSync(join(w.hooks, "pre-commit")); // as for a submodule initialised after `tandem init`
    for (const command of ["git -C vendor/lib commit -qam x", "cd vendor/lib && git commit -qam x"]) {
      const reason = await bash(command);
      expect(reason).toContain("skips the pre-commit hook");
      expect(reason).toContain("vendor/lib/x.c");
    }
    // B's own file alone is not A's: allowed.
    expect(await bash("git -C vendor/lib commit -qm y -- y.c")).toBeNull();
  });

  it("a person at a terminal is told of TANDEM_BYPASS, and it lets their commit through with a record", async () => {
    const w = await peersInSubmodule();
    // A person whose shell names session B (a variable left over), at a terminal of their own.
    const atTerminal = (vars: string) =>
      spawnSync("script", ["-qec", `${vars} git commit -qam person`, "/dev/null"], {
        cwd: w.sub,
        env: { ...env({ CLAUDE_PID: "" }), CLAUDE_CODE_SESSION_ID: "B" } as NodeJS.ProcessEnv,
        encoding: "utf8",
      });
    const refused = atTerminal("true;");
    expect(refused.status).not.toBe(0);
    expect(refused.stdout).toContain("As a person at this terminal you may set TANDEM_BYPASS=1");
    const bypassed = atTerminal(`TANDEM_BYPASS=${shellQuote("1")}`);
    expect(bypassed.status).toBe(0);
    expect(bypassed.stdout).toContain("TANDEM_BYPASS=1 is set");
    const outcomes = ledger(w.app)
      .events.filter((e) => e.kind === "commit.guarded")
      .map((e) => (e.data as { outcome: string }).outcome);
    expect(outcomes).toEqual(["refused", "bypassed"]);
  });
});
