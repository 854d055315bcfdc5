import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { shellQuote } from "../../src/core/shell-quote.js";
import { PINNED, TANDEM_BIN, tandem } from "../helpers/cli.js";
import { hook } from "../helpers/hooks.js";
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

describe("the command agents are told to run, in a login shell", () => {
  it("init and doctor report a `tandem` a login shell cannot find, with the fix", () => {
    const { repo, env } = bashrcOnlyTandem();
    expect(loginShell("tandem --version", repo, env).status).toBe(127);
    const init = tandem(["init", "--command", "tandem", "--clients", "claude-code"], { cwd: repo, env });
    expect(init.code).toBe(0);
    expect(init.stdout).toMatch(/Warning: `bash -lc 'tandem --version'` fails here \(.*not found\)/);
    const r = tandem(["doctor", "--json"], { cwd: repo, env });
    const check = (JSON.parse(r.stdout).checks as { check: string; level: string; fix?: string }[]).find(
      (c) => c.check === "agent shell",
    );
    expect(check).toMatchObject({ level: "problem" });
    expect(check?.fix).toMatch(/~\/\.profile .* then run `tandem doctor` again/);
    expect(r.code).toBe(1);
  });

  it("after the probe failed, hooks tell the agent a command its login shell runs", () => {
    const { repo, env } = bashrcOnlyTandem();
    tandem(["init", "--command", "tandem", "--clients", "claude-code"], { cwd: repo, env });
    const start = hook(
      "claude-code",
      "session-start",
      { session_id: "A", cwd: repo, hook_event_name: "SessionStart", source: "startup" },
      { cwd: repo, env },
    );
    const context = JSON.parse(start.stdout).hookSpecificOutput.additionalContext as string;
    expect(context).toContain(`\`${PINNED} status\``);
    expect(context).not.toMatch(/`tandem (status|task)/);
    const told = /run `(.+) status`/.exec(context)![1]!;
    expect(loginShell(`${told} --version`, repo, env).status).toBe(0);
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
