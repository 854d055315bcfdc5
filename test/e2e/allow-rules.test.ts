import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PIN, TANDEM_BIN, tandem } from "../helpers/cli.js";
import { initRepo, tempDir } from "../helpers/repo.js";
import { type AnthropicFake, startAnthropicFake } from "./harness/anthropic-fake.js";
import { ensureClients } from "./harness/install-clients.js";
import { type ResponsesFake, startResponsesFake } from "./harness/responses-fake.js";
import { runClaude } from "./harness/run-claude.js";
import { runCodex } from "./harness/run-codex.js";
import { lastToolResult, newSessionId } from "./support.js";

/**
 * `tandem init`'s allow rules, proven with the real Claude Code in its default permission mode,
 * where `claude -p` denies to the model any Bash call no rule allows (docs/clients.md §1.7).
 */

let bin: string;
let codexBin: string;
let anthropic: AnthropicFake;
let responses: ResponsesFake;

beforeAll(async () => {
  const bins = await ensureClients();
  bin = bins.claude;
  codexBin = bins.codex;
  anthropic = await startAnthropicFake();
  responses = await startResponsesFake();
});

afterAll(async () => {
  await anthropic?.close();
  await responses?.close();
});

const APPROVAL = /require approval|needs approval|requires approval/;

/** Runs one scripted Bash call in the default mode and returns what the tool answered. */
async function bashInDefaultMode(repo: string, home: string, command: string): Promise<string> {
  const id = newSessionId();
  anthropic.script([{ tool: "Bash", input: { command } }, { text: "done" }], { session: id });
  const run = await runClaude({
    bin,
    cwd: repo,
    prompt: "run the ritual",
    baseUrl: anthropic.url,
    home,
    sessionId: id,
    permissionMode: "default",
    allowedTools: "",
    env: { PATH: "/usr/bin:/bin", TANDEM_STOP_RITUAL: "off" },
  });
  expect(run.exitCode, run.stderr).toBe(0);
  const reqs = anthropic.requestsFor(id);
  return lastToolResult(reqs.at(-1)!);
}

/** A person who opened the project once and trusted it: project permissions apply only then. */
function trustedHome(base: string, repo: string): string {
  const home = join(base, "claude-home");
  mkdirSync(home, { recursive: true });
  const state = { hasCompletedOnboarding: true, projects: { [repo]: { hasTrustDialogAccepted: true } } };
  writeFileSync(join(home, ".claude.json"), JSON.stringify(state));
  return home;
}

function project(
  launcher: string[],
  installed: (repo: string) => void = () => {},
): { base: string; repo: string; home: string } {
  const base = tempDir("tandem-allow-");
  const repo = initRepo(join(base, "repo"));
  installed(repo);
  const init = tandem(["init", ...launcher, "--clients", "claude-code", "--no-git-hooks"], {
    cwd: repo,
    env: { PATH: "/usr/bin:/bin" },
  });
  if (init.code !== 0) throw new Error(`tandem init failed: ${init.stderr}`);
  return { base, repo, home: trustedHome(base, repo) };
}

describe("the ritual runs without an approval prompt in Claude's default mode", () => {
  it("with a pinned launcher: task and status run, another tandem command still asks", async () => {
    const p = project(PIN);
    const cmd = PIN[1]!;
    const ritual = await bashInDefaultMode(p.repo, p.home, `${cmd} task "check the rules" && ${cmd} status`);
    expect(ritual).not.toMatch(APPROVAL);
    expect(ritual).toMatch(/task (set|unchanged)[\s\S]*\+-- tandem status: agent-/);
    // The rules are narrow: the same launcher with another subcommand is not covered.
    expect(await bashInDefaultMode(p.repo, p.home, `${cmd} claims`)).toMatch(APPROVAL);
  });

  it("with a devDependency: the local file's exact rules cover the absolute path agents are told", async () => {
    // Installed before `npx tandem init`, as a devDependency is: init's probe finds it.
    const install = (repo: string) => {
      mkdirSync(join(repo, "node_modules/.bin"), { recursive: true });
      const bin = join(repo, "node_modules/.bin/tandem");
      writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" "${TANDEM_BIN}" "$@"\n`);
      chmodSync(bin, 0o755);
    };
    const p = project(["--command", "node_modules/.bin/tandem"], install);
    const shim = join(p.repo, "node_modules/.bin/tandem");
    const ritual = await bashInDefaultMode(p.repo, p.home, `${shim} task "" && ${shim} status --end-turn`);
    expect(ritual).not.toMatch(APPROVAL);
    expect(ritual).toMatch(/task (set|unchanged)[\s\S]*\+-- tandem status: agent-/);
    // What a leading-wildcard rule would have let through without asking.
    const sneaky = `node -e 'require("fs").writeFileSync("PWNED", "")' /node_modules/.bin/tandem task x`;
    expect(await bashInDefaultMode(p.repo, p.home, sneaky)).toMatch(APPROVAL);
  });
});

/** A `tandem` on the PATH of the agent's login shell (`~/.profile`), as a global install would be. */
function globalTandem(base: string): { home: string; path: string } {
  const dir = join(base, "bin");
  mkdirSync(dir);
  writeFileSync(join(dir, "tandem"), `#!/bin/sh\nexec "${process.execPath}" "${TANDEM_BIN}" "$@"\n`);
  chmodSync(join(dir, "tandem"), 0o755);
  const home = join(base, "home");
  mkdirSync(home);
  writeFileSync(join(home, ".profile"), `export PATH="${dir}:$PATH"\n`);
  return { home, path: `${dir}:/usr/bin:/bin` };
}

describe("Codex runs the ritual outside its sandbox through Tandem's prefix rule", () => {
  it("writes to the store under .git, which the workspace-write sandbox keeps read-only", async () => {
    const base = tempDir("tandem-allow-codex-");
    const repo = initRepo(join(base, "repo"));
    const { home, path } = globalTandem(base);
    const env = { PATH: path, HOME: home, TANDEM_STOP_RITUAL: "off" };
    const init = tandem(["init", "--command", "tandem", "--clients", "codex", "--no-git-hooks"], {
      cwd: repo,
      env,
    });
    expect(init.code, init.stderr).toBe(0);
    const ritual = async (): Promise<string> => {
      responses.script([{ exec: `tandem task "check the rule" && tandem status` }, { text: "done" }]);
      const run = await runCodex({
        bin: codexBin,
        cwd: repo,
        prompt: "run the ritual",
        baseUrl: responses.url,
        codexHome: join(base, "codex-home"),
        bypassHookTrust: true,
        env,
        extraArgs: ["-c", 'sandbox_mode="workspace-write"', "-c", 'approval_policy="on-request"'],
      });
      const item = run.events.find(
        (e) => (e.item as { type?: string })?.type === "command_execution" && e.type === "item.completed",
      );
      return String((item?.item as { aggregated_output?: string })?.aggregated_output);
    };
    expect(await ritual()).toMatch(/task set — check the rule[\s\S]*\+-- tandem status: agent-/);
    // Without the rule the same call runs sandboxed, and the store cannot be written.
    rmSync(join(repo, ".codex/rules"), { recursive: true });
    expect(await ritual()).toMatch(/state\.db cannot be opened/);
  });
});
