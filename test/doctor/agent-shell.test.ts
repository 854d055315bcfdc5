import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { shellQuote } from "../../src/core/shell/quote.js";
import { agentShell, runInAgent } from "../helpers/agent-shell.js";
import { PINNED, TANDEM_BIN, tandem } from "../helpers/cli.js";
import { hook, ledger } from "../helpers/hooks.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/**
 * A `tandem` that only a non-login shell finds, as with a PATH set in ~/.bashrc or by nvm: a
 * login shell (Codex's shell tool starts from one) resets PATH and finds none.
 */
function bashrcOnlyTandem() {
  const base = tempDir();
  const bin = join(base, "bin");
  const home = join(base, "home");
  mkdirSync(bin);
  mkdirSync(home);
  const shim = join(bin, "tandem");
  writeFileSync(shim, `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(TANDEM_BIN)} "$@"\n`);
  chmodSync(shim, 0o755);
  const env = { PATH: `${bin}:/usr/bin:/bin`, HOME: home };
  const repo = initRepo(join(base, "repo"));
  return { repo, env };
}

const loginShell = (command: string, cwd: string, env: Record<string, string>) =>
  spawnSync("bash", ["-lc", command], { cwd, env, encoding: "utf8" });

const doctorCheck = (repo: string, env: Record<string, string>) => {
  const r = tandem(["doctor", "--json"], { cwd: repo, env });
  const checks = JSON.parse(r.stdout).checks as {
    check: string;
    level: string;
    detail: string;
    fix?: string;
  }[];
  return { code: r.code, shell: checks.find((c) => c.check === "agent shell"), checks };
};

describe("the command agents are told to run, in a login shell", () => {
  it("init writes the repository launcher for a `tandem` a login shell cannot find, names it in both clients' local rules, and git ignores them", () => {
    const { repo, env } = bashrcOnlyTandem();
    expect(loginShell("tandem --version", repo, env).status).toBe(127);
    const init = tandem(["init", "--command", "tandem", "--clients", "claude-code,codex"], {
      cwd: repo,
      env,
    });
    expect(init.code).toBe(0);
    const launcher = join(realpathSync(repo), ".git/tandem/bin/tandem");
    expect(init.stdout).toMatch(/`bash -lc 'tandem --version'` fails here \(.*not found\)/);
    expect(init.stdout).toContain(`agents in this repository run ${launcher} instead`);
    expect(init.stdout).not.toMatch(/^Warning/m);
    expect(loginShell(`${launcher} --version`, repo, env).status).toBe(0);
    const local = JSON.parse(readFileSync(join(repo, ".claude/settings.local.json"), "utf8"));
    expect(local.permissions.allow).toEqual([`Bash(${launcher} task:*)`, `Bash(${launcher} status:*)`]);
    expect(readFileSync(join(repo, ".codex/rules/tandem-local.rules"), "utf8")).toContain(
      `prefix_rule(pattern = ["${launcher}", ["task", "status"]], decision = "allow")`,
    );
    // The committed files keep the portable rules for teammates whose login shell finds `tandem`.
    expect(readFileSync(join(repo, ".codex/rules/tandem.rules"), "utf8")).toContain('["tandem", ["task"');
    expect(readFileSync(join(repo, ".claude/settings.json"), "utf8")).toContain('"Bash(tandem task:*)"');
    const untracked = spawnSync("git", ["status", "--porcelain", "--untracked-files=all"], {
      cwd: repo,
      encoding: "utf8",
    }).stdout;
    expect(untracked).not.toMatch(/settings\.local\.json|tandem-local\.rules/);
    expect(tandem(["init", "--check"], { cwd: repo, env }).code).toBe(0);
    const doctor = doctorCheck(repo, env);
    expect(doctor.shell).toMatchObject({ level: "ok" });
    expect(doctor.shell?.detail).toContain(`so agents run ${launcher}, which starts Tandem there`);
    expect(doctor.checks.filter((c) => c.check === "client hooks" && c.level === "problem")).toEqual([]);
  });

  it("after the probe failed, hooks tell the agent the repository launcher, and its login shell runs the ritual with it", () => {
    const { repo, env } = bashrcOnlyTandem();
    tandem(["init", "--command", "tandem", "--clients", "claude-code"], { cwd: repo, env });
    const launcher = join(realpathSync(repo), ".git/tandem/bin/tandem");
    const agent = agentShell();
    const start = hook(
      "claude-code",
      "session-start",
      { session_id: "A", cwd: repo, hook_event_name: "SessionStart", source: "startup" },
      { cwd: repo, env: { ...env, ...agent } },
    );
    const context = JSON.parse(start.stdout).hookSpecificOutput.additionalContext as string;
    expect(context).toContain(`\`${launcher} status\``);
    expect(context).not.toMatch(/`tandem (status|task)/);
    expect(context).not.toContain(PINNED);
    const told = /run `(.+) status`/.exec(context)![1]!;
    expect(told).toBe(launcher);
    // As the agent's login shell runs it: a child of the agent's process, which says whose it is.
    const ritual = runInAgent(agent, "bash", ["-lc", `${told} task "tidy up" && ${told} status --end-turn`], {
      cwd: repo,
      env: { ...env, ...agent },
    });
    expect(ritual.stderr).toBe("");
    expect(ritual.code).toBe(0);
    const kinds = ledger(repo).events.map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(["task.set", "status.checked"]));
  });

  it("doctor reports a missing or broken repository launcher as a problem, with `tandem init` as the fix", () => {
    const { repo, env } = bashrcOnlyTandem();
    tandem(["init", "--command", "tandem", "--clients", "claude-code"], { cwd: repo, env });
    const launcher = join(repo, ".git/tandem/bin/tandem");
    writeFileSync(launcher, '#!/bin/sh\nexec /nonexistent/node "$@"\n');
    const broken = doctorCheck(repo, env);
    expect(broken.shell).toMatchObject({ level: "problem" });
    expect(broken.shell?.fix).toMatch(/re-run `tandem init`/);
    expect(broken.code).toBe(1);
    rmSync(launcher);
    const missing = doctorCheck(repo, env);
    expect(missing.shell).toMatchObject({ level: "problem" });
    expect(missing.shell?.fix).toMatch(/run `tandem init`: it writes .*\.git\/tandem\/bin\/tandem/);
    expect(tandem(["init"], { cwd: repo, env }).code).toBe(0);
    expect(doctorCheck(repo, env).shell).toMatchObject({ level: "ok" });
  });

  it("a project-relative launcher is told as an absolute path, so a `cd` does not break it", () => {
    const { repo, env } = bashrcOnlyTandem();
    const bin = join(repo, "node_modules", ".bin");
    mkdirSync(bin, { recursive: true });
    const shim = join(bin, "tandem");
    writeFileSync(shim, `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(TANDEM_BIN)} "$@"\n`);
    chmodSync(shim, 0o755);
    const init = tandem(["init", "--command", "node_modules/.bin/tandem", "--clients", "claude-code"], {
      cwd: repo,
      env,
    });
    expect(init.stdout).not.toMatch(/Warning: `bash -lc/);
    const prompt = hook(
      "claude-code",
      "user-prompt-submit",
      { session_id: "A", cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "go" },
      { cwd: repo, env },
    );
    const context = JSON.parse(prompt.stdout).hookSpecificOutput.additionalContext as string;
    expect(context).toContain(`\`${shim} status\``);
  });
});
