import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initRepo, tempDir, writeFiles } from "../helpers/repo.js";
import { startAnthropicFake } from "./harness/anthropic-fake.js";
import { type ClientBins, ensureClients } from "./harness/install-clients.js";
import { startResponsesFake } from "./harness/responses-fake.js";
import { runClaude } from "./harness/run-claude.js";
import { listCodexHooks, runCodex, trustCodexHooks, writeCodexConfig } from "./harness/run-codex.js";

/**
 * Appends each hook payload to the log named in argv. "deny" then blocks like a guard would;
 * "block-once" blocks a Stop once (not when the client says a Stop hook is already active).
 */
const LOGGER = `import { appendFileSync, readFileSync } from "node:fs";
const [log, mode] = process.argv.slice(2);
const payload = JSON.parse(readFileSync(0, "utf8"));
appendFileSync(log, JSON.stringify(payload) + "\\n");
if (mode === "deny") {
  process.stderr.write("DENIED-BY-TEST\\n");
  process.exit(2);
}
if (mode === "block-once" && !payload.stop_hook_active) {
  process.stderr.write("KEEP-GOING\\n");
  process.exit(2);
}
`;

interface Payload {
  hook_event_name: string;
  tool_name?: string;
  session_id: string;
  [field: string]: unknown;
}

interface Sandbox {
  /** Temp folder holding the repo, the hook script, its log and client homes. */
  base: string;
  repo: string;
  log: string;
  /** Shell command that logs its payload; the modes are described at LOGGER. */
  hook: (mode?: "deny" | "block-once") => string;
  logged: () => Payload[];
}

function sandbox(): Sandbox {
  const base = tempDir("tandem-e2e-");
  const repo = initRepo(join(base, "repo"));
  const script = join(base, "log-hook.mjs");
  const log = join(base, "hooks.jsonl");
  writeFileSync(script, LOGGER);
  return {
    base,
    repo,
    log,
    hook: (mode) =>
      [process.execPath, script, log, ...(mode ? [mode] : [])].map((a) => JSON.stringify(a)).join(" "),
    logged: () =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .trim()
            .split("\n")
            .map((l) => JSON.parse(l) as Payload)
        : [],
  };
}

function events(payloads: Payload[]): string[] {
  return payloads.map((p) => (p.tool_name ? `${p.hook_event_name}:${p.tool_name}` : p.hook_event_name));
}

function hooksConfig(entries: Record<string, { matcher?: string; command: string }>): string {
  const hooks = Object.fromEntries(
    Object.entries(entries).map(([event, { matcher, command }]) => [
      event,
      [{ ...(matcher ? { matcher } : {}), hooks: [{ type: "command", command, timeout: 30 }] }],
    ]),
  );
  return `${JSON.stringify({ hooks }, null, 2)}\n`;
}

const PATCH = "*** Begin Patch\n*** Add File: patched.txt\n+from apply_patch\n*** End Patch\n";

describe("real-client e2e harness", () => {
  let bins: ClientBins;
  let tierStart = 0;

  beforeAll(async () => {
    tierStart = Date.now();
    bins = await ensureClients();
    console.log(`e2e: clients ready in ${Date.now() - tierStart} ms`);
  });

  afterAll(() => {
    console.log(`e2e: harness tier wall time ${Date.now() - tierStart} ms`);
  });

  it("drives Claude through a Write and a final text; hooks see every step", async () => {
    const box = sandbox();
    const cmd = box.hook();
    writeFiles(box.repo, {
      ".claude/settings.json": hooksConfig({
        PreToolUse: { matcher: "Write", command: cmd },
        PostToolUse: { matcher: "Write", command: cmd },
        Stop: { command: cmd },
      }),
    });
    const target = join(box.repo, "hello.txt");
    const fake = await startAnthropicFake();
    try {
      fake.script([{ tool: "Write", input: { file_path: target, content: "hi\n" } }, { text: "Wrote it." }]);
      const run = await runClaude({
        bin: bins.claude,
        cwd: box.repo,
        prompt: "write hello.txt",
        baseUrl: fake.url,
        home: join(box.base, "home"),
      });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.resultText).toBe("Wrote it.");
      expect(readFileSync(target, "utf8")).toBe("hi\n");
      expect(events(box.logged())).toEqual(["PreToolUse:Write", "PostToolUse:Write", "Stop"]);
      const sessionId = box.logged()[0]?.session_id;
      expect(fake.requests.filter((r) => !r.auxiliary).map((r) => r.sessionId)).toEqual([
        sessionId,
        sessionId,
      ]);
      expect(fake.errors).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it("a Bash command exiting non-zero fires PostToolUseFailure, its output in error", async () => {
    const box = sandbox();
    const cmd = box.hook();
    writeFiles(box.repo, {
      ".claude/settings.json": hooksConfig({
        PostToolUse: { matcher: "Bash", command: cmd },
        PostToolUseFailure: { matcher: "Bash", command: cmd },
      }),
    });
    const fake = await startAnthropicFake();
    try {
      const command = "echo to-stdout; echo to-stderr >&2; exit 3";
      fake.script([{ tool: "Bash", input: { command } }, { text: "Done." }]);
      const run = await runClaude({
        bin: bins.claude,
        cwd: box.repo,
        prompt: "fail once",
        baseUrl: fake.url,
        home: join(box.base, "home"),
      });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(events(box.logged())).toEqual(["PostToolUseFailure:Bash"]);
      const failure = box.logged()[0]!;
      expect(failure.tool_input).toMatchObject({ command });
      expect(failure).not.toHaveProperty("tool_response");
      expect(failure.error).toMatch(/^Exit code 3\n/);
      expect(failure.error).toMatch(/to-stderr/);
      expect(failure.error).toMatch(/to-stdout/);
      expect(fake.errors).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it("an exit-2 PreToolUse hook blocks Claude's Write and its stderr reaches the model", async () => {
    const box = sandbox();
    writeFiles(box.repo, {
      ".claude/settings.json": hooksConfig({ PreToolUse: { matcher: "Write", command: box.hook("deny") } }),
    });
    const target = join(box.repo, "blocked.txt");
    const sessionId = "7d2c8a41-5b0e-4f7a-9c3d-2e6f1a0b9c84";
    const fake = await startAnthropicFake();
    try {
      fake.script([{ tool: "Write", input: { file_path: target, content: "no\n" } }, { text: "Gave up." }], {
        session: sessionId,
      });
      const run = await runClaude({
        bin: bins.claude,
        cwd: box.repo,
        prompt: "write blocked.txt",
        baseUrl: fake.url,
        home: join(box.base, "home"),
        sessionId,
      });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(existsSync(target)).toBe(false);
      const [, next] = fake.requestsFor(sessionId);
      expect(next?.toolResults).toBe(1);
      expect(next?.text).toContain("DENIED-BY-TEST");
      expect(events(box.logged())).toEqual(["PreToolUse:Write"]);
    } finally {
      await fake.close();
    }
  });

  it("a blocking Stop hook makes Claude ask the model again; a step function sees why", async () => {
    const box = sandbox();
    writeFiles(box.repo, {
      ".claude/settings.json": hooksConfig({ Stop: { command: box.hook("block-once") } }),
    });
    const fake = await startAnthropicFake();
    try {
      // No tool call happens, so both model requests ask for step 0; the request body tells them apart.
      fake.script([
        (req) => ({ text: req.text.includes("KEEP-GOING") ? "Second answer." : "First answer." }),
      ]);
      const run = await runClaude({
        bin: bins.claude,
        cwd: box.repo,
        prompt: "answer twice",
        baseUrl: fake.url,
        home: join(box.base, "home"),
      });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.resultText).toBe("Second answer.");
      expect(fake.requests.filter((r) => !r.auxiliary).map((r) => r.reply)).toEqual([
        { text: "First answer." },
        { text: "Second answer." },
      ]);
      expect(box.logged().map((p) => p.stop_hook_active)).toEqual([false, true]);
    } finally {
      await fake.close();
    }
  });

  function codexSandbox(): Sandbox & { codexHome: string } {
    const box = sandbox();
    const cmd = box.hook();
    writeFiles(box.repo, {
      ".codex/hooks.json": hooksConfig({
        PreToolUse: { matcher: "^(apply_patch|Bash)$", command: cmd },
        PostToolUse: { matcher: "^(apply_patch|Bash)$", command: cmd },
        Stop: { command: cmd },
      }),
    });
    return { ...box, codexHome: join(box.base, "codex-home") };
  }

  const CODEX_STEPS = [{ patch: PATCH }, { exec: "echo made > made.txt" }, { text: "All done." }];
  const CODEX_EVENTS = [
    "PreToolUse:apply_patch",
    "PostToolUse:apply_patch",
    "PreToolUse:Bash",
    "PostToolUse:Bash",
    "Stop",
  ];

  it("drives Codex through apply_patch, exec_command and a final text with hook trust bypassed", async () => {
    const box = codexSandbox();
    const fake = await startResponsesFake();
    try {
      fake.script(CODEX_STEPS);
      const run = await runCodex({
        bin: bins.codex,
        cwd: box.repo,
        prompt: "patch and run",
        baseUrl: fake.url,
        codexHome: box.codexHome,
        bypassHookTrust: true,
      });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.lastMessage).toBe("All done.");
      expect(readFileSync(join(box.repo, "patched.txt"), "utf8")).toBe("from apply_patch\n");
      expect(readFileSync(join(box.repo, "made.txt"), "utf8")).toBe("made\n");
      expect(events(box.logged())).toEqual(CODEX_EVENTS);
      expect(box.logged().every((p) => p.session_id === run.threadId)).toBe(true);
      expect(fake.requestsFor(run.threadId ?? "").map((r) => r.toolOutputs)).toEqual([0, 1, 2]);
      expect(fake.errors).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it("runs Codex hooks without the bypass flag once trusted through the app-server", async () => {
    const box = codexSandbox();
    const fake = await startResponsesFake();
    try {
      fake.script(CODEX_STEPS);
      const opts = { bin: bins.codex, cwd: box.repo, codexHome: box.codexHome };
      writeCodexConfig({ ...opts, baseUrl: fake.url });
      const before = await listCodexHooks(opts);
      expect(before.map((h) => h.trustStatus)).toEqual(["untrusted", "untrusted", "untrusted"]);
      const after = await trustCodexHooks(opts);
      expect(after.map((h) => h.trustStatus)).toEqual(["trusted", "trusted", "trusted"]);
      expect(after.map((h) => h.currentHash)).toEqual(before.map((h) => h.currentHash));

      const run = await runCodex({ ...opts, prompt: "patch and run", baseUrl: fake.url });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.lastMessage).toBe("All done.");
      expect(events(box.logged())).toEqual(CODEX_EVENTS);
    } finally {
      await fake.close();
    }
  });
});
