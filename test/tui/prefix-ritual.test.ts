import { appendFileSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { raw } from "../../src/store/handle.js";
import { geminiPolicyFile } from "../../src/wiring/gemini-policy.js";
import { type AnthropicFake, type ClaudeReply, startAnthropicFake } from "../e2e/harness/anthropic-fake.js";
import { type GeminiReply, type GeminiRequest, startGeminiFake } from "../e2e/harness/gemini-fake.js";
import { type ClientBins, ensureClients, ensureGemini } from "../e2e/harness/install-clients.js";
import { type CodexReply, type ResponsesFake, startResponsesFake } from "../e2e/harness/responses-fake.js";
import { trustCodexHooks, writeCodexConfig } from "../e2e/harness/run-codex.js";
import { GEMINI_MODEL, writeGeminiHome } from "../e2e/harness/run-gemini.js";
import { lastToolResult } from "../e2e/support.js";
import { Tui } from "./driver.js";
import { claudeReply, codexReply, DONE, geminiReply, steps } from "./fake-replies.js";
import { geminiIdle, sendToGemini, stopResidentServer } from "./gemini-ui.js";
import { initFromPrefix, type PrefixMachine, prefixMachine } from "./prefix-install.js";
import { CODEX_NOTICES, seedClaudeHome, stopCodexDaemon } from "./world.js";

/**
 * Issue 26 deliverable 2: Tandem installed into an npm prefix that only the person's terminal has
 * on PATH, and each client in its default mode (Claude Code: default permissions; Codex: the
 * workspace-write sandbox, asking on request; Gemini CLI: the default approval mode). The model runs the ritual exactly as Tandem told it;
 * it must run without an approval prompt and without an error, and reach Tandem's ledger.
 */

const RITUAL = "RITUAL";
const TASK = "checking the prefix ritual";

/** The commands Tandem told the agent (its session context), from the request as the model got it. */
function toldCommands(body: unknown): { task: string; status: string } | null {
  const text = JSON.stringify(body);
  const status = [...text.matchAll(/run `([^`]+ status(?: --end-turn)?)`/g)].at(-1)?.[1];
  const cmd = [...text.matchAll(/`([^`]+) task \\"/g)].at(-1)?.[1];
  return status && cmd ? { task: `${cmd} task "${TASK}"`, status } : null;
}

const ritualOf = (body: unknown) => {
  const told = toldCommands(body);
  return told ? `${told.task} && ${told.status}` : "echo Tandem told no ritual";
};

/** Whether the newest turn (everything after the model's last message) is the person's RITUAL order. */
function asked(items: readonly { role?: string }[]): boolean {
  const last = items.map((i) => i.role).lastIndexOf("assistant");
  return JSON.stringify(items.slice(last + 1)).includes(RITUAL);
}

/** Claude runs the ritual, then ends with the status box the status command printed. */
function claudeRitual(req: Parameters<typeof claudeReply>[0]): ClaudeReply {
  const reply = claudeReply(req);
  if ("text" in reply && reply.text === DONE)
    return { text: `${DONE}\n\n\`\`\`\n${lastToolResult(req)}\n\`\`\`` };
  if (asked(req.body.messages ?? []))
    return { tool: "Bash", input: { command: ritualOf(req.body), description: "Tandem ritual" } };
  return reply;
}

function codexRitual(req: Parameters<typeof codexReply>[0]): CodexReply {
  const reply = codexReply(req);
  if ("text" in reply && reply.text === DONE) return reply;
  return asked((req.body.input ?? []) as { role?: string }[]) ? { exec: ritualOf(req.body) } : reply;
}

/** Gemini runs the ritual when the person's order arrives, then ends the turn after its result. */
function geminiRitual(req: GeminiRequest): GeminiReply {
  const last = req.body.contents?.at(-1)?.parts ?? [];
  if (last.some((p) => p.functionResponse)) return { text: DONE };
  if (req.lastText.includes(RITUAL))
    return { call: "run_shell_command", args: { command: ritualOf(req.body), description: "Tandem ritual" } };
  return geminiReply(req);
}

/** What a person must never be asked, nor see, for the ritual. */
const PROMPTED =
  /Do you want to proceed|don't ask again|Would you like to run|Allow command|Allow execution|approve/i;
const FAILED = /readonly database|cannot be opened|command not found|No such file|tandem: /;

let bins: ClientBins;
let m: PrefixMachine;
let init: string;
const open: Tui[] = [];

beforeAll(async () => {
  bins = await ensureClients();
  m = prefixMachine();
  init = initFromPrefix(m, "claude-code,codex,gemini-cli");
});

afterEach(async () => {
  for (const t of open.splice(0)) await t.kill();
});

afterAll(async () => {
  for (const t of open.splice(0)) await t.kill();
  if (m) stopResidentServer(m.repo);
  if (m) rmSync(m.base, { recursive: true, force: true });
});

/** The ritual's two events, recorded for a session of `client` with the task the model set. */
function ritualRecorded(client: string): boolean {
  const db = openDb(join(m.repo, ".git", "tandem"));
  try {
    const mine = raw(db)
      .prepare(
        "SELECT e.kind, e.data FROM events e JOIN sessions s ON s.id = e.session_id WHERE s.client = ?",
      )
      .all(client) as { kind: string; data: string }[];
    return (
      mine.some((e) => e.kind === "task.set" && e.data.includes(TASK)) &&
      mine.some((e) => e.kind === "status.checked")
    );
  } finally {
    db.close();
  }
}

describe("the ritual of a prefix install that a login shell cannot find", () => {
  it("init tells agents the repository launcher and writes the rules that name it", () => {
    const launcher = join(realpathSync(m.repo), ".git/tandem/bin/tandem");
    expect(init).toContain(`agents in this repository run ${launcher} instead`);
    expect(init).not.toMatch(/^Warning/m);
    expect(readFileSync(join(m.repo, ".codex/rules/tandem-local.rules"), "utf8")).toContain(`"${launcher}"`);
    expect(readFileSync(join(m.repo, ".claude/settings.local.json"), "utf8")).toContain(
      `Bash(${launcher} task:*)`,
    );
    // Gemini's allow rule is the user's policy (decisions 0031, 0048): it names the launcher agents are told.
    const policy = readFileSync(geminiPolicyFile({ GEMINI_CLI_HOME: m.home }, m.repo), "utf8");
    expect(policy).toContain(`"${launcher} task", "${launcher} status"`);
  });

  it("runs in Claude Code's default permission mode with no approval prompt and no error", async () => {
    const fake: AnthropicFake = await startAnthropicFake();
    try {
      fake.script(steps(claudeRitual));
      seedClaudeHome(m.home, m.repo);
      const env = {
        ...m.env,
        TERM: "xterm-256color",
        LANG: "C.UTF-8",
        ANTHROPIC_BASE_URL: fake.url,
        ANTHROPIC_API_KEY: "fake",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
        IS_SANDBOX: "1",
      };
      // Named: this Claude's own default is auto mode, whose classifier would decide instead of the rules.
      const ui = Tui.start({
        test: "prefix-claude-ritual",
        cmd: bins.claude,
        args: ["--permission-mode", "default"],
        cwd: m.repo,
        env,
      });
      open.push(ui);
      await ui.waitFor("started", /❯/);
      await ui.say(RITUAL);
      const idle = (s: string) => !/esc to interrupt|running \w+ hook/i.test(s);
      const screen = await ui.waitFor(
        "ritual-ran",
        (s) => PROMPTED.test(s) || (s.includes(DONE) && idle(s)),
        { stableMs: 2000 },
      );
      const turn = screen.slice(screen.lastIndexOf(RITUAL));
      expect(turn).not.toMatch(PROMPTED);
      expect(turn).not.toMatch(FAILED);
      expect(turn).not.toMatch(/Stop hook/);
      expect(turn).toContain("tandem status:");
      expect(fake.errors).toEqual([]);
      expect(ritualRecorded("claude-code")).toBe(true);
    } finally {
      await fake.close();
    }
  });

  it("runs in Codex's default workspace-write sandbox with no approval prompt and no error", async () => {
    const fake: ResponsesFake = await startResponsesFake();
    const codexHome = join(m.base, "codex-home");
    try {
      fake.script(steps(codexRitual));
      const config = writeCodexConfig({ codexHome, baseUrl: fake.url, cwd: m.repo });
      // Codex's defaults for a trusted project, which the harness otherwise opens up for speed.
      const text = readFileSync(config, "utf8")
        .replace('approval_policy = "never"', 'approval_policy = "on-request"')
        .replace('sandbox_mode = "danger-full-access"', 'sandbox_mode = "workspace-write"');
      writeFileSync(config, text);
      appendFileSync(config, `\n${CODEX_NOTICES}`);
      await trustCodexHooks({ bin: bins.codex, codexHome, cwd: m.repo, env: m.env });
      const env = {
        ...m.env,
        TERM: "xterm-256color",
        LANG: "C.UTF-8",
        CODEX_HOME: codexHome,
        MOCK_API_KEY: "fake",
      };
      const ui = Tui.start({ test: "prefix-codex-ritual", cmd: bins.codex, args: [], cwd: m.repo, env });
      open.push(ui);
      // Ready once the status line names the model (its thread is up); a busy machine takes a while.
      await ui.waitFor("started", /GPT-5\.5 default/, { stableMs: 1000, timeoutMs: 180_000 });
      await ui.say(RITUAL);
      for (let i = 0; i < 3; i++) {
        try {
          await ui.waitFor("ritual-running", (s) => /\n\s*•/.test(s.slice(s.lastIndexOf(`› ${RITUAL}`))), {
            timeoutMs: 4000,
          });
          break;
        } catch {
          ui.key("Enter");
        }
      }
      const screen = await ui.waitFor(
        "ritual-ran",
        (s) => PROMPTED.test(s) || /Worked for/.test(s.slice(s.lastIndexOf(`› ${RITUAL}`))),
        { stableMs: 1000 },
      );
      const turn = screen.slice(screen.lastIndexOf(`› ${RITUAL}`));
      expect(turn).not.toMatch(PROMPTED);
      expect(turn).not.toMatch(FAILED);
      expect(turn).toContain(DONE);
      expect(fake.errors).toEqual([]);
      expect(ritualRecorded("codex")).toBe(true);
      // Codex's own start-up warning (no bubblewrap on PATH, its bundled one used): never Tandem's.
      if (/1 warning/.test(screen)) {
        ui.key("F2");
        const warnings = await ui.waitFor("warnings", /warning/i, { stableMs: 1000 });
        expect(warnings.slice(warnings.lastIndexOf("Worked for"))).not.toMatch(/tandem|\.rules/i);
      }
    } finally {
      for (const t of open.splice(0)) await t.kill();
      await stopCodexDaemon(codexHome);
      await fake.close();
    }
  });

  it("runs in Gemini CLI's default approval mode with no approval prompt and no error", async () => {
    const entry = await ensureGemini();
    const fake = await startGeminiFake();
    try {
      fake.script(steps(geminiRitual));
      // Trust and API-key auth only: the allow rule is the one init wrote into this home's policies.
      writeGeminiHome(m.home, [m.repo]);
      const env = {
        ...m.env,
        TERM: "xterm-256color",
        LANG: "C.UTF-8",
        GEMINI_API_KEY: "fake",
        GOOGLE_GEMINI_BASE_URL: fake.url,
        GEMINI_CLI_NO_RELAUNCH: "true",
      };
      const ui = Tui.start({
        test: "prefix-gemini-ritual",
        cmd: process.execPath,
        args: [entry, "-m", GEMINI_MODEL],
        cwd: m.repo,
        env,
      });
      open.push(ui);
      await ui.waitFor("started", geminiIdle, { stableMs: 1000, timeoutMs: 180_000 });
      await sendToGemini(ui, RITUAL);
      const screen = await ui.waitFor(
        "ritual-ran",
        (s) => PROMPTED.test(s) || (s.slice(s.lastIndexOf(`> ${RITUAL}`)).includes(DONE) && geminiIdle(s)),
        { stableMs: 2000, timeoutMs: 180_000 },
      );
      const turn = screen.slice(screen.lastIndexOf(`> ${RITUAL}`));
      expect(turn).not.toMatch(PROMPTED);
      expect(turn).not.toMatch(FAILED);
      expect(turn).not.toMatch(/Agent execution blocked|request failed/i);
      expect(turn).toContain(DONE);
      expect(fake.errors).toEqual([]);
      expect(ritualRecorded("gemini-cli")).toBe(true);
    } finally {
      await fake.close();
    }
  });
});
