import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENT_NAMES } from "../../src/clients/index.js";
import { readConfigFile } from "../../src/config/load.js";
import { REGION_START } from "../../src/wiring/git-hooks.js";
import { shellQuote } from "../../src/wiring/hook-command.js";
import { PIN, TANDEM_BIN } from "../helpers/cli.js";
import { g, initRepo, tempDir, writeFiles } from "../helpers/repo.js";
import { run as binaryRun, LAUNCHER, pathWithoutCodex, read, readJson, runHere, tree } from "./helpers.js";

const EXPECTED_FILES = [
  ".claude/settings.json",
  ".codex/hooks.json",
  ".cursor/hooks.json",
  ".github/hooks/tandem.json",
  ".gemini/settings.json",
  ".tandem/config.jsonc",
  ".git/hooks/pre-commit",
  ".git/hooks/post-commit",
  ".git/hooks/post-checkout",
];

function repo(files?: Record<string, string>): string {
  return initRepo(join(tempDir(), "repo"), files);
}

/**
 * `run` (./helpers.ts) answered in this process: what init reports and writes. What names or
 * compares the running bundle (the refusal's suggested `--command`, the `tandem` on PATH) and
 * the git hooks git runs after init stay on the binary (`binaryRun`).
 */
const run = runHere;

describe("tandem init in a fresh repository", () => {
  it("creates every settings file, the config and the git hooks, with commands that point at this tandem", async () => {
    const dir = repo();
    const res = await run(["init", ...PIN], dir);
    expect(res.code).toBe(0);
    for (const f of EXPECTED_FILES)
      expect(res.stdout).toMatch(new RegExp(`created +${f.replaceAll(".", "\\.")}`));
    expect(res.stdout).toContain("Codex: `codex` is not on PATH, so hook trust could not be checked");

    const claude = readJson(join(dir, ".claude/settings.json"));
    expect(claude.hooks.Stop).toEqual([
      { hooks: [{ type: "command", command: `${LAUNCHER} hook claude-code stop` }] },
    ]);
    expect(claude.hooks.PreToolUse[0].matcher).toBe("Write|Edit|MultiEdit|NotebookEdit|Bash");
    // A failed call (a Bash command exiting non-zero) fires PostToolUseFailure, not PostToolUse.
    expect(Object.keys(claude.hooks)).toEqual([
      "SessionStart",
      "UserPromptSubmit",
      "PreToolUse",
      "PostToolUse",
      "PostToolUseFailure",
      "Stop",
      "SessionEnd",
    ]);
    expect(claude.hooks.PostToolUseFailure).toEqual([
      {
        matcher: "Write|Edit|MultiEdit|NotebookEdit|Bash",
        hooks: [{ type: "command", command: `${LAUNCHER} hook claude-code post-tool-use-failure` }],
      },
    ]);
    const codex = readJson(join(dir, ".codex/hooks.json"));
    expect(codex.hooks.PreToolUse[0].hooks[0].command).toBe(`${LAUNCHER} hook codex pre-tool-use`);
    const cursor = readJson(join(dir, ".cursor/hooks.json"));
    expect(cursor.version).toBe(1);
    expect(cursor.hooks.beforeShellExecution).toEqual([
      { command: `${LAUNCHER} hook cursor before-shell-execution` },
    ]);
    // Gemini: an anchored regex matcher, and a name Gemini shows when it first meets project hooks.
    const gemini = readJson(join(dir, ".gemini/settings.json"));
    expect(gemini.hooks.BeforeTool).toEqual([
      {
        matcher: "^(write_file|replace|run_shell_command)$",
        hooks: [{ type: "command", command: `${LAUNCHER} hook gemini-cli before-tool`, name: "tandem" }],
      },
    ]);
    expect(Object.keys(gemini.hooks)).toEqual([
      "SessionStart",
      "BeforeAgent",
      "BeforeTool",
      "AfterTool",
      "AfterAgent",
      "SessionEnd",
    ]);

    // Pinned on purpose, so recorded like any --command: a re-run keeps it.
    expect(readConfigFile(join(dir, ".tandem/config.jsonc"))).toEqual({
      init: {
        command: LAUNCHER,
        clients: [...CLIENT_NAMES],
        gitHooks: true,
      },
    });
    for (const name of ["pre-commit", "post-commit", "post-checkout"]) {
      const hook = join(dir, ".git/hooks", name);
      expect(statSync(hook).mode & 0o777).toBe(0o755);
      expect(readFileSync(hook, "utf8")).toContain(`${LAUNCHER} git-hook ${name} "$@"`);
    }
  });

  it("changes nothing on a second run, byte for byte, and says so", async () => {
    const dir = repo();
    await run(["init", ...PIN], dir);
    const before = tree(dir);
    const res = await run(["init"], dir);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("Already up to date.");
    expect(tree(dir)).toEqual(before);
  });

  it("--dry-run lists what it would do and writes nothing", async () => {
    const dir = repo();
    const before = tree(dir);
    const res = await run(["init", ...PIN, "--dry-run"], dir);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/would create +\.claude\/settings\.json \(7 hooks, 2 allow rules\)/);
    expect(res.stdout).toContain("Dry run: nothing was written.");
    expect(tree(dir)).toEqual(before);
  });

  it("--clients codex writes only Codex, with nothing but description and hooks at the top level", async () => {
    const dir = repo({ ".codex/hooks.json": '{ "description": "team hooks", "hooks": {} }\n' });
    expect((await run(["init", ...PIN, "--clients", "codex", "--no-git-hooks"], dir)).code).toBe(0);
    expect(existsSync(join(dir, ".claude"))).toBe(false);
    expect(existsSync(join(dir, ".cursor"))).toBe(false);
    expect(existsSync(join(dir, ".git/hooks/pre-commit"))).toBe(false);
    const codex = readJson(join(dir, ".codex/hooks.json"));
    expect(Object.keys(codex)).toEqual(["description", "hooks"]);
    expect(Object.keys(codex.hooks)).toHaveLength(6);
  });

  it("prints one JSON object with --json", async () => {
    const dir = repo();
    const out = JSON.parse((await run(["init", ...PIN, "--json", "--clients", "cursor"], dir)).stdout);
    expect(out).toMatchObject({ command: "init", mode: "write", root: dir, ok: true, codexTrust: null });
    expect(out.files.map((f: { path: string; action: string }) => `${f.action} ${f.path}`)).toContain(
      "create .cursor/hooks.json",
    );
  });
});

describe("how the hooks start Tandem when init is given no --command", () => {
  it.each([[["init"]], [["init", "--check"]], [["init", "--dry-run", "--clients", "cursor"]]])(
    "%j refuses with exit 2 and writes nothing when this tandem is neither on PATH nor in node_modules",
    (args) => {
      const dir = repo();
      const before = tree(dir);
      const res = binaryRun(args, dir);
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/neither on PATH nor in the project's node_modules.*nothing was written/);
      expect(res.stderr).toMatch(/npm install -g .*re-run `tandem init`/);
      expect(res.stderr).toContain(`tandem init --command ${shellQuote(LAUNCHER)}`);
      expect(res.stdout).toBe("");
      expect(tree(dir)).toEqual(before);
    },
  );

  it("uses and records `tandem` when the tandem on PATH is this one", () => {
    const dir = repo();
    const bin = join(dir, "..", "bin");
    mkdirSync(bin);
    symlinkSync(TANDEM_BIN, join(bin, "tandem"));
    const res = binaryRun(["init", "--clients", "cursor"], dir, { PATH: `${bin}:${pathWithoutCodex()}` });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).not.toMatch(/absolute paths/);
    // That PATH is not one a login shell sets up: agents are told the repository launcher instead.
    expect(res.stdout).toMatch(
      /`bash -lc 'tandem --version'` fails here .* agents in this repository run \S+\/\.git\/tandem\/bin\/tandem instead/,
    );
    expect(readJson(join(dir, ".cursor/hooks.json")).hooks.stop[0].command).toBe("tandem hook cursor stop");
    expect(readConfigFile(join(dir, ".tandem/config.jsonc"))?.init?.command).toBe("tandem");
    // Recorded, so a re-run from a Tandem that is not on PATH keeps it instead of refusing.
    expect(binaryRun(["init"], dir).stdout).toContain("Already up to date.");
  });
});

describe("tandem init next to what is already there", () => {
  const CLAUDE = `{
  // Team permissions: reviewed in PR #12
  "permissions": { "allow": ["Bash(npm test)"] },
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "./scripts/guard.sh" }] }
    ]
  },
  "model": "opus" // pinned
}
`;

  it("keeps foreign hooks, unrelated keys and comments, and deinit restores the file byte for byte", async () => {
    const dir = repo({ ".claude/settings.json": CLAUDE });
    expect((await run(["init", ...PIN, "--clients", "claude-code"], dir)).code).toBe(0);
    const wired = read(join(dir, ".claude/settings.json"))!;
    expect(wired).toContain("// Team permissions: reviewed in PR #12");
    expect(wired).toContain('"model": "opus" // pinned');
    expect(wired).toContain(
      '{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "./scripts/guard.sh" }] },',
    );
    expect(wired).toContain(`${LAUNCHER} hook claude-code stop`);

    const res = await run(["deinit", "--clients", "claude-code"], dir);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/updated +\.claude\/settings\.json: removed 7 Tandem hooks/);
    expect(read(join(dir, ".claude/settings.json"))).toBe(CLAUDE);
  });

  it("refuses an unparseable settings file, leaves it byte-identical and writes nothing at all", async () => {
    const broken = '{ "hooks": { "Stop": [ }\n';
    const dir = repo({ ".claude/settings.json": broken });
    const before = tree(dir);
    const res = await run(["init", ...PIN], dir);
    expect(res.code).toBe(1);
    expect(res.stderr.trim().split("\n")).toEqual([
      "tandem: .claude/settings.json:1:24: ValueExpected; fix it or move the file aside, then re-run (nothing was written).",
    ]);
    expect(tree(dir)).toEqual(before);
  });

  it("puts its block first in an existing git hook, which keeps running after it", () => {
    const dir = repo();
    const log = join(dir, "..", "order.log");
    const fake = join(dir, "..", "bin", "tandem");
    writeFiles(join(dir, ".."), {
      "bin/tandem": `#!/bin/sh\necho "tandem $*" >> '${log}'\nexit "\${FAKE_EXIT:-0}"\n`,
    });
    chmodSync(fake, 0o755);
    writeFileSync(join(dir, ".git/hooks/pre-commit"), `#!/bin/sh\necho user-hook >> '${log}'\n`, {
      mode: 0o755,
    });
    expect(binaryRun(["init", "--command", fake, "--clients", "cursor"], dir).code).toBe(0);
    const hook = read(join(dir, ".git/hooks/pre-commit"))!;
    expect(hook.split("\n")[1]).toBe(REGION_START);
    expect(hook).toContain(`echo user-hook >> '${log}'`);
    writeFileSync(log, ""); // init ran `tandem --version` once, as an agent's login shell would

    g(dir, "commit", "-q", "--allow-empty", "-m", "one");
    expect(read(log)!.split("\n")).toEqual([
      "tandem git-hook pre-commit",
      "user-hook",
      "tandem git-hook prepare-commit-msg .git/COMMIT_EDITMSG message",
      "tandem git-hook post-commit",
      "",
    ]);
  });

  it("lets a failing pre-commit stop the commit, but never a failing post-commit", () => {
    const dir = repo();
    const fake = join(dir, "..", "bin", "tandem");
    // It answers init's login-shell probe (`--version`), so the hooks call it rather than the
    // repository launcher (decision 0049).
    writeFiles(join(dir, ".."), {
      "bin/tandem": '#!/bin/sh\n[ "$1" = --version ] && exit 0\n[ "$2" = "$FAIL_ON" ] && exit 3\nexit 0\n',
    });
    chmodSync(fake, 0o755);
    expect(binaryRun(["init", "--command", fake, "--clients", "cursor"], dir).code).toBe(0);
    const commit = (failOn: string) =>
      spawnGit(dir, ["commit", "-q", "--allow-empty", "-m", failOn], { FAIL_ON: failOn }).status;
    expect(commit("pre-commit")).toBe(1);
    expect(commit("post-commit")).toBe(0);
  });

  it("installs into core.hooksPath when it is set", async () => {
    const dir = repo();
    g(dir, "config", "core.hooksPath", ".githooks");
    expect((await run(["init", ...PIN, "--clients", "cursor"], dir)).code).toBe(0);
    expect(read(join(dir, ".githooks/pre-commit"))).toContain("git-hook pre-commit");
    expect(existsSync(join(dir, ".git/hooks/pre-commit"))).toBe(false);
  });

  it("from a linked worktree, wires that worktree's files and the repository's shared hooks dir", async () => {
    const dir = repo();
    const wt = join(dir, "..", "wt");
    g(dir, "worktree", "add", "-q", wt);
    const res = await run(["init", ...PIN, "--clients", "claude-code"], wt);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`created      ${join(dir, ".git/hooks/pre-commit")}`);
    expect(existsSync(join(wt, ".claude/settings.json"))).toBe(true);
    expect(existsSync(join(dir, ".claude/settings.json"))).toBe(false);
    expect(read(join(dir, ".git/hooks/post-checkout"))).toContain("git-hook post-checkout");
  });
});

describe("tandem init --check", () => {
  it("exits 0 when everything is current and writes nothing", async () => {
    const dir = repo();
    await run(["init", ...PIN], dir);
    const before = tree(dir);
    const res = await run(["init", "--check"], dir);
    expect(res).toMatchObject({ code: 0, stdout: `tandem init --check: ${dir} is up to date.\n` });
    expect(tree(dir)).toEqual(before);
  });

  it("exits 1 with one line per difference: missing hook, missing git hook, missing files", async () => {
    const dir = repo();
    await run(["init", ...PIN, "--clients", "claude-code,codex"], dir);
    const file = join(dir, ".claude/settings.json");
    const settings = readJson(file);
    delete settings.hooks.Stop;
    writeFileSync(file, JSON.stringify(settings, null, 2));
    unlinkSync(join(dir, ".git/hooks/pre-commit"));
    const before = tree(dir);
    const res = await run(["init", "--check"], dir);
    expect(res.code).toBe(1);
    expect(res.stdout.trim().split("\n")).toEqual([
      ".claude/settings.json: Stop hook missing",
      ".git/hooks/pre-commit: missing",
      // Spelled as the person runs Tandem here: the pinned launcher the test records.
      expect.stringMatching(/^2 differences; run `.+ init` to fix them\.$/),
    ]);
    expect(tree(dir)).toEqual(before);
  });

  it("exits 1 on a stale launcher, naming what it found and what it wants", async () => {
    const dir = repo();
    await run(["init", "--clients", "codex", "--command", "npx tandem"], dir);
    const res = await run(["init", "--check", "--command", LAUNCHER], dir);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(
      `.codex/hooks.json: Stop hook differs: command is "npx tandem hook codex stop", want "${LAUNCHER} hook codex stop"`,
    );
    expect(res.stdout).toMatch(/\.git\/hooks\/pre-commit: Tandem block differs from `.*git-hook pre-commit/);
    expect((await run(["init", "--check"], dir)).code).toBe(0);
  });

  it("keeps the recorded choice: after init --command tandem --clients claude-code, --check is up to date", async () => {
    const dir = repo();
    const res = await run(["init", "--command", "tandem", "--clients", "claude-code"], dir);
    expect(res.stdout).toContain("git hooks are not committed, so every clone runs `tandem init` once");
    expect(readConfigFile(join(dir, ".tandem/config.jsonc"))?.init).toEqual({
      command: "tandem",
      clients: ["claude-code"],
      gitHooks: true,
    });
    expect(await run(["init", "--check"], dir)).toMatchObject({
      code: 0,
      stdout: `tandem init --check: ${dir} is up to date.\n`,
    });
    expect((await run(["init"], dir)).stdout).toContain("Already up to date.");
    expect(existsSync(join(dir, ".codex/hooks.json"))).toBe(false);
  });

  it("warns that an absolute --command works on this machine only", async () => {
    const dir = repo();
    const res = await run(["init", "--clients", "cursor", "--command", LAUNCHER], dir);
    expect(res.stdout).toMatch(/Warning: the hooks call absolute paths on this machine.*--command tandem/);
  });

  it("ignores the git hooks with --no-git-hooks and reports a missing config", async () => {
    const dir = repo();
    await run(["init", ...PIN, "--clients", "cursor", "--no-git-hooks"], dir);
    unlinkSync(join(dir, ".tandem/config.jsonc"));
    const res = await run(["init", ...PIN, "--check", "--clients", "cursor", "--no-git-hooks"], dir);
    expect(res.stdout.trim().split("\n")).toEqual([
      ".tandem/config.jsonc: missing",
      expect.stringMatching(/^1 difference; run `.+ init` to fix them\.$/),
    ]);
  });
});

describe("tandem init usage errors", () => {
  it.each([
    [
      ["init", "--clients", "claude-code,vscode"],
      new RegExp(
        `unknown client "vscode" in --clients; use a comma-separated list of ${CLIENT_NAMES.join(", ")}\\.`,
      ),
    ],
    [["init", "--check", "--dry-run"], /--check and --dry-run cannot be combined/],
    [["init", "--command", "npx tandem@1"], /--command "npx tandem@1" must end with tandem or tandem\.cjs/],
    [["deinit", "--clients", ""], /--clients is empty/],
  ])("%j exits 2 with one line", async (args, message) => {
    const res = await run(args, repo());
    expect(res.code).toBe(2);
    expect(res.stderr.trim().split("\n")).toHaveLength(1);
    expect(res.stderr).toMatch(message);
  });

  it("exits 2 outside a repository", async () => {
    const res = await run(["init"], tempDir());
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/not inside a Git repository/);
  });
});

function spawnGit(cwd: string, args: string[], env: Record<string, string>) {
  return spawnSync("git", ["-c", "user.name=T", "-c", "user.email=t@t.invalid", ...args], {
    cwd,
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
}
