import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PIN, PINNED, type RunResult, tandem } from "../helpers/cli.js";
import {
  claudeBash,
  claudeWrite,
  codexPatch,
  denied,
  ledger,
  type Payload,
  hook as spawnHook,
} from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { g, initRepo, tempDir, writeFiles } from "../helpers/repo.js";
import { scenario } from "../helpers/scenario.js";

/** Every file `tandem init` writes, plus Claude's local settings and Codex's config beside them. */
const WIRING = [
  ".claude/settings.json",
  ".claude/settings.local.json",
  ".codex/hooks.json",
  ".codex/config.toml",
  ".codex/rules/tandem.rules",
  ".codex/rules/new.rules",
  ".cursor/hooks.json",
  ".tandem/config.jsonc",
  ".git/hooks/pre-commit",
  ".git/hooks/post-commit",
  ".git/hooks/post-checkout",
];

/**
 * A fresh copy of one repository wired by the real `tandem init` (init once: it is most of a test's
 * time), with the two files init does not write.
 */
const wiredRepo = scenario("wired", (repo) => {
  initRepo(repo);
  const init = tandem(["init", ...PIN], { cwd: repo });
  expect(init.code, init.stderr).toBe(0);
  writeFiles(repo, { ".claude/settings.local.json": "{}\n", ".codex/config.toml": "[features]\n" });
});

const claudeEdit = (repo: string, session: string, file: string): Payload => ({
  ...claudeWrite(repo, session, file),
  tool_name: "Edit",
  tool_input: { file_path: join(repo, file), old_string: "PreToolUse", new_string: "Off" },
});

const updatePatch = (file: string) =>
  `*** Begin Patch\n*** Update File: ${file}\n@@\n-a\n+b\n*** End Patch\n`;

const cursorWrite = (repo: string, file: string): Payload => ({
  conversation_id: "cursor-B",
  generation_id: "g1",
  hook_event_name: "preToolUse",
  workspace_roots: [repo],
  cursor_version: "2.0",
  tool_name: "Write",
  tool_input: { file_path: join(repo, file), contents: "{}" },
});

type Attempt = (repo: string, file: string, env?: Record<string, string>) => Promise<RunResult>;

const ATTEMPTS: [string, Attempt][] = [
  [
    "Claude Write",
    (r, f, env) => hook("claude-code", "pre-tool-use", claudeWrite(r, "B", f), { cwd: r, env }),
  ],
  ["Claude Edit", (r, f, env) => hook("claude-code", "pre-tool-use", claudeEdit(r, "B", f), { cwd: r, env })],
  [
    "a shell redirect",
    (r, f, env) => hook("claude-code", "pre-tool-use", claudeBash(r, "B", `echo x > ${f}`), { cwd: r, env }),
  ],
  [
    "Codex apply_patch",
    (r, f, env) => hook("codex", "pre-tool-use", codexPatch(r, "B", updatePatch(f)), { cwd: r, env }),
  ],
];

const CASES = WIRING.flatMap((file) => ATTEMPTS.map(([how, run]) => [how, file, run] as const));

/** The Cursor answer's reason, or null when it allowed the call. */
function cursorDenied(r: RunResult): string | null {
  const out = JSON.parse(r.stdout) as { permission: string; agent_message?: string };
  return out.permission === "deny" ? (out.agent_message ?? "") : null;
}

function deniedPaths(repo: string): { path: string; reason: string }[] {
  return ledger(repo)
    .events.filter((e) => e.kind === "claim.denied")
    .flatMap((e) => (e.data as { refused: { path: string; reason: string }[] }).refused);
}

describe("an agent's edit of Tandem's wiring at pre-tool-use", () => {
  it.each(CASES)("refuses %s of %s, with the remedy", async (_how, file, run) => {
    const repo = wiredRepo();
    const reason = denied(await run(repo, file));
    expect(reason).toMatch(/Tandem's wiring/);
    // The user runs init or deinit with the launcher init recorded: this repository's is pinned.
    expect(reason).toContain(`\`${PINNED} init\` / \`${PINNED} deinit\``);
    expect(reason).toMatch(/TANDEM_ALLOW_WIRING_EDITS=1/);
    expect(deniedPaths(repo).map((d) => d.reason)).toEqual(["protected-wiring"]);
    expect(ledger(repo).claims).toEqual([]);
  });

  it("refuses Cursor's Write of its own hooks file", async () => {
    const repo = wiredRepo();
    const r = await hook("cursor", "pre-tool-use", cursorWrite(repo, ".cursor/hooks.json"), { cwd: repo });
    expect(cursorDenied(r)).toMatch(/Cursor's hooks/);
  });

  it.each([
    ["rm", "rm .git/hooks/pre-commit"],
    ["rm -rf of the settings directory", "rm -rf .claude"],
    ["mv", "mv .tandem/config.jsonc /tmp/tandem-config-aside"],
    ["sed -i", "sed -i 's/enforce/off/' .tandem/config.jsonc"],
    ["tee", "echo '{}' | tee .codex/hooks.json"],
    ["cp over it", "cp README.md .cursor/hooks.json"],
  ])("refuses a shell %s", async (_how, command) => {
    const repo = wiredRepo();
    expect(
      denied(await hook("claude-code", "pre-tool-use", claudeBash(repo, "B", command), { cwd: repo })),
    ).toMatch(/Tandem's wiring/);
  });

  it("refuses a write through a symlink that lands on the settings", async () => {
    const repo = wiredRepo();
    symlinkSync(join(repo, ".claude/settings.json"), join(repo, "innocent.json"));
    expect(
      denied(
        await hook("claude-code", "pre-tool-use", claudeWrite(repo, "B", "innocent.json"), { cwd: repo }),
      ),
    ).toMatch(/Claude Code's hooks/);
  });

  it("refuses the hooks where core.hooksPath puts them, set in the repository's config", async () => {
    const repo = wiredRepo();
    g(repo, "config", "core.hooksPath", ".githooks");
    writeFiles(repo, { ".githooks/pre-commit": "#!/bin/sh\n" });
    expect(
      denied(
        await hook("claude-code", "pre-tool-use", claudeWrite(repo, "B", ".githooks/pre-commit"), {
          cwd: repo,
        }),
      ),
    ).toMatch(/pre-commit hook \(core\.hooksPath\)/);
    expect(
      denied(
        await hook("claude-code", "pre-tool-use", claudeBash(repo, "B", "rm -rf .githooks"), { cwd: repo }),
      ),
    ).toMatch(/Tandem's wiring/);
  });

  it("refuses the hooks where a global core.hooksPath puts them, asking git", async () => {
    const repo = wiredRepo();
    const home = tempDir();
    writeFiles(home, { ".gitconfig": "[core]\n\thooksPath = ~/shared-hooks\n" });
    const env = { GIT_CONFIG_GLOBAL: join(home, ".gitconfig"), HOME: home };
    const payload = claudeWrite(repo, "B", "x");
    payload.tool_input = { file_path: join(home, "shared-hooks/post-checkout"), content: "" };
    // Git reads its global config from the hook process's environment: the binary's, not a request's.
    expect(denied(spawnHook("claude-code", "pre-tool-use", payload, { cwd: repo, env }))).toMatch(
      /post-checkout hook \(core\.hooksPath\)/,
    );
  });

  it("refuses a shell command that starts a process with TANDEM_ALLOW_WIRING_EDITS=1, and allows a search for it", async () => {
    const repo = wiredRepo();
    const run = async (command: string) =>
      denied(await hook("claude-code", "pre-tool-use", claudeBash(repo, "B", command), { cwd: repo }));
    expect(await run("TANDEM_ALLOW_WIRING_EDITS=1 claude -p 'turn the hooks off'")).toMatch(
      /TANDEM_ALLOW_WIRING_EDITS: only the person who starts an agent may set it/,
    );
    expect(await run("grep -rn TANDEM_ALLOW_WIRING_EDITS .")).toBeNull();
  });

  it.each([
    ["tandem deinit", /tandem deinit: it changes Tandem's wiring/],
    ["npx tandem init --clients codex", /tandem init: it changes Tandem's wiring/],
    ["tandem sub apply fix --allow-config", /--allow-config: it changes Tandem's wiring/],
    ["git config core.hooksPath /dev/null", /git config core\.hooksPath: it changes Tandem's wiring/],
    ["git config --local core.hooksPath .nohooks && git commit -am x", /git config core\.hooksPath/],
  ])(
    "refuses %s from an agent's shell: it switches hooks off without editing a file",
    async (command, reason) => {
      const repo = wiredRepo();
      expect(
        denied(await hook("claude-code", "pre-tool-use", claudeBash(repo, "B", command), { cwd: repo })),
      ).toMatch(reason);
    },
  );

  it("lets an agent read core.hooksPath and run tandem status", async () => {
    const repo = wiredRepo();
    for (const command of ["git config --get core.hooksPath", "tandem status", "git config user.name"]) {
      expect(
        denied(await hook("claude-code", "pre-tool-use", claudeBash(repo, "B", command), { cwd: repo })),
      ).toBeNull();
    }
  });

  it("refuses a command piping a payload into tandem hook", async () => {
    const repo = wiredRepo();
    const command = `echo '{"session_id":"A","hook_event_name":"SessionEnd"}' | tandem hook claude-code session-end`;
    expect(
      denied(await hook("claude-code", "pre-tool-use", claudeBash(repo, "B", command), { cwd: repo })),
    ).toMatch(/calls `tandem hook`/);
  });

  it("allows the ordinary files beside the wiring", async () => {
    const repo = wiredRepo();
    for (const file of [
      ".claude/agents/reviewer.md",
      ".tandem/notes.md",
      ".git/hooks/pre-push",
      "src/pre-commit",
    ]) {
      expect(
        denied(await hook("claude-code", "pre-tool-use", claudeWrite(repo, "B", file), { cwd: repo })),
        file,
      ).toBeNull();
    }
    expect(
      denied(
        await hook("claude-code", "pre-tool-use", claudeBash(repo, "B", "echo x > .claude/notes.md"), {
          cwd: repo,
        }),
      ),
    ).toBeNull();
  });

  it("allows the edits to an agent started with TANDEM_ALLOW_WIRING_EDITS=1, and claims them as usual", async () => {
    const repo = wiredRepo();
    const env = { TANDEM_ALLOW_WIRING_EDITS: "1" };
    for (const [i, [how, run]] of ATTEMPTS.entries()) {
      expect(denied(await run(repo, WIRING[i]!, env)), how).toBeNull();
    }
    expect(ledger(repo).claims).toEqual(
      WIRING.slice(0, ATTEMPTS.length)
        .map((path) => ({ path, holder: "B" }))
        .sort((a, b) => a.path.localeCompare(b.path)),
    );
    // Any other value is not a yes.
    expect(
      denied(
        await hook("claude-code", "pre-tool-use", claudeWrite(repo, "C", ".tandem/config.jsonc"), {
          cwd: repo,
          env: { TANDEM_ALLOW_WIRING_EDITS: "yes" },
        }),
      ),
    ).toMatch(/Tandem's wiring/);
  });
});
