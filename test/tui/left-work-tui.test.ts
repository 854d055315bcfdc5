import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { startAnthropicFake } from "../e2e/harness/anthropic-fake.js";
import { startGeminiFake } from "../e2e/harness/gemini-fake.js";
import { type ClientBins, ensureClients, ensureGemini } from "../e2e/harness/install-clients.js";
import { startResponsesFake } from "../e2e/harness/responses-fake.js";
import { trustCodexHooks, writeCodexConfig } from "../e2e/harness/run-codex.js";
import { GEMINI_MODEL, writeGeminiHome } from "../e2e/harness/run-gemini.js";
import { initProject, type Project } from "../e2e/support.js";
import { tandem } from "../helpers/cli.js";
import { Tui, until } from "./driver.js";
import { claudeReply, codexReply, DONE, geminiReply, steps } from "./fake-replies.js";
import { geminiIdle, sendToGemini, stopResidentServer } from "./gemini-ui.js";
import { expectLeftWork } from "./left-checks.js";
import {
  CODEX_NOTICES,
  type SessionInfo,
  seedClaudeHome,
  sessions,
  stopCodexDaemon,
  terminalEnv,
} from "./world.js";

/**
 * Issue 26, "Done when": a real client writes f.txt, the person quits it the client's own way
 * (Claude Code `/exit`, Codex `/quit` under its daemon, Gemini CLI `/quit`) without committing,
 * and the file is left work everywhere a person looks, its bytes saved and given back.
 */

const TASK = "leave a file behind";
let bins: ClientBins;
let geminiEntry: string;
const open: Tui[] = [];

beforeAll(async () => {
  bins = await ensureClients();
  geminiEntry = await ensureGemini();
});

afterEach(async () => {
  for (const t of open.splice(0)) await t.kill();
});

function start(test: string, p: Project, cmd: string, args: string[], env: Record<string, string>): Tui {
  const t = Tui.start({ test, cmd, args, cwd: p.repo, env });
  open.push(t);
  return t;
}

/** The one live session of `client` once its UI has made it. */
async function liveSession(p: Project, client: string): Promise<SessionInfo> {
  let mine: SessionInfo | undefined;
  await until(`a live ${client} session`, async () => {
    mine = (await sessions(p)).find((s) => s.client === client && s.live);
    return mine !== undefined;
  });
  return mine!;
}

/** The person names the task from their shell (this fake model does not run the ritual). */
function declareTask(p: Project, s: SessionInfo): void {
  const r = tandem(["task", TASK, "--session", s.name], { cwd: p.repo, terminal: true });
  expect(r.code, r.stderr).toBe(0);
}

async function gone(p: Project, s: SessionInfo, how: string): Promise<void> {
  await until(
    `the ${s.client} session is gone after ${how}`,
    async () => (await sessions(p)).some((x) => x.nativeId === s.nativeId && !x.live),
    60_000,
  );
}

describe("a real client's session that ends with an uncommitted file leaves it as left work", () => {
  it("Claude Code, ended with /exit", async () => {
    const fake = await startAnthropicFake();
    try {
      fake.script(steps(claudeReply));
      const p = initProject("claude-code", { onPath: true });
      const home = join(p.base, "home");
      mkdirSync(home, { recursive: true });
      seedClaudeHome(home, p.repo);
      const ui = start("left-claude", p, bins.claude, ["--permission-mode", "acceptEdits"], {
        ...terminalEnv(p, home),
        ANTHROPIC_BASE_URL: fake.url,
        ANTHROPIC_API_KEY: "fake",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
        IS_SANDBOX: "1",
      });
      await ui.waitFor("started", /❯/, { timeoutMs: 120_000 });
      const order = `WRITE ${join(p.repo, "f.txt")}`;
      await ui.say(order);
      const idle = (s: string) => !/esc to interrupt|running \w+ hook/i.test(s);
      await ui.waitFor("wrote", (s) => s.slice(s.lastIndexOf(order)).includes(DONE) && idle(s), {
        stableMs: 2000,
        timeoutMs: 120_000,
      });
      expect(p.read("f.txt")).toBe("hello\n");
      const mine = await liveSession(p, "claude-code");
      declareTask(p, mine);
      await ui.say("/exit");
      await gone(p, mine, "/exit");
      expect((await sessions(p)).find((x) => x.nativeId === mine.nativeId)?.ended).toBe(true);
      expectLeftWork(p, "f.txt", "hello\n", { name: mine.name, client: "claude-code", task: TASK });
    } finally {
      await fake.close();
    }
  });

  it("Codex, ended with /quit while its app-server daemon stays up", async () => {
    const fake = await startResponsesFake();
    // Not a tempDir(): the daemon may still write into it while vitest removes those.
    const codexHome = mkdtempSync(join(tmpdir(), "tui-left-codex-"));
    try {
      fake.script(steps(codexReply));
      const p = initProject("codex");
      writeCodexConfig({ codexHome, baseUrl: fake.url, cwd: p.repo });
      appendFileSync(join(codexHome, "config.toml"), `\n${CODEX_NOTICES}`);
      await trustCodexHooks({ bin: bins.codex, codexHome, cwd: p.repo, env: p.env });
      const home = join(p.base, "home");
      mkdirSync(home, { recursive: true });
      const ui = start("left-codex", p, bins.codex, [], {
        ...terminalEnv(p, home),
        CODEX_HOME: codexHome,
        MOCK_API_KEY: "fake",
      });
      await ui.waitFor("started", /GPT-5\.5 default/, { stableMs: 1000, timeoutMs: 180_000 });
      const order = "PATCH f.txt";
      await ui.say(order);
      const turn = (s: string) => s.slice(s.lastIndexOf(`› ${order}`));
      // An Enter typed while the UI is still settling can be lost: press it again until the turn runs.
      for (let i = 0; i < 3; i++) {
        try {
          await ui.waitFor("running", (s) => /\n\s*•/.test(turn(s)), { timeoutMs: 4000 });
          break;
        } catch {
          ui.key("Enter");
        }
      }
      await ui.waitFor("wrote", (s) => /Worked for/.test(turn(s)), { stableMs: 1000, timeoutMs: 120_000 });
      expect(p.read("f.txt")).toBe("hello\n");
      const mine = await liveSession(p, "codex");
      declareTask(p, mine);
      await ui.say("/quit");
      await gone(p, mine, "/quit");
      expectLeftWork(p, "f.txt", "hello\n", { name: mine.name, client: "codex", task: TASK });
    } finally {
      for (const t of open.splice(0)) await t.kill();
      await stopCodexDaemon(codexHome);
      rmSync(codexHome, { recursive: true, force: true });
      await fake.close();
    }
  });

  it("Gemini CLI, ended with /quit after running the ritual", async () => {
    const fake = await startGeminiFake();
    try {
      fake.script(steps(geminiReply));
      const p = initProject("gemini-cli", { onPath: true });
      const home = join(p.base, "home");
      mkdirSync(home, { recursive: true });
      writeGeminiHome(home, [p.repo]);
      // Init with this home, so Gemini's allow rule for the ritual is in the user's policies (decision 0031).
      const init = tandem(["init", "--command", "tandem", "--clients", "gemini-cli"], {
        cwd: p.repo,
        env: { PATH: p.path, HOME: home, GEMINI_CLI_HOME: undefined },
      });
      expect(init.code, init.stderr).toBe(0);
      const ui = start(
        "left-gemini",
        p,
        process.execPath,
        [geminiEntry, "-m", GEMINI_MODEL, "--approval-mode", "auto_edit"],
        {
          ...terminalEnv(p, home),
          GEMINI_API_KEY: "fake",
          GOOGLE_GEMINI_BASE_URL: fake.url,
          GEMINI_CLI_NO_RELAUNCH: "true",
        },
      );
      await ui.waitFor("started", geminiIdle, { stableMs: 1000, timeoutMs: 120_000 });
      const order = `WRITE ${join(p.repo, "f.txt")}`;
      await sendToGemini(ui, order);
      // The fake model obeys Tandem's end-of-turn reason: it declares "writing files", then checks status.
      await ui.waitFor(
        "wrote",
        (s) => /tandem status:/.test(s.slice(s.lastIndexOf(`> ${order}`))) && geminiIdle(s),
        { stableMs: 2000, timeoutMs: 180_000 },
      );
      expect(p.read("f.txt")).toBe("hello\n");
      const mine = await liveSession(p, "gemini-cli");
      await sendToGemini(ui, "/quit");
      await gone(p, mine, "/quit");
      expect((await sessions(p)).find((x) => x.nativeId === mine.nativeId)?.ended).toBe(true);
      expectLeftWork(p, "f.txt", "hello\n", { name: mine.name, client: "gemini-cli", task: "writing files" });
      stopResidentServer(p.repo);
    } finally {
      await fake.close();
    }
  });
});
