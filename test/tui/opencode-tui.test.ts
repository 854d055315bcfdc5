import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { REMEDIATION_LEAD } from "../../src/core/ritual/messages.js";
import {
  type ChatRequest,
  type CopilotFake,
  type CopilotReply,
  startCopilotFake,
} from "../e2e/harness/copilot-fake.js";
import { ensureOpencode } from "../e2e/harness/install-clients.js";
import { agentRequestsSince, startOpencode } from "../e2e/harness/opencode-start.js";
import { opencodeConfig } from "../e2e/harness/run-opencode.js";
import { initProject, ledgerEvents, type Project } from "../e2e/support.js";
import { Tui, until } from "./driver.js";
import { DONE, steps } from "./fake-replies.js";
import { stopResidentServer } from "./gemini-ui.js";
import { expectLeftWork } from "./left-checks.js";
import { peerHolds, sessions, terminalEnv } from "./world.js";

/**
 * Issue 38's three scenes in the real opencode 1.18.33 terminal UI: a peer's file refused with
 * Tandem's reason, a turn that leaves an uncommitted file and runs the ritual Tandem sends as a
 * follow-up prompt (decision 0038), and `/exit` followed by a person's `tandem status`. opencode's
 * start-up freeze is detected and retried, and reported as opencode's (opencode-start.ts).
 */

const TASK = "writing files";
/** What a person must never see from Tandem: its internal command line. */
const INTERNAL = /tandem\.cjs|\/usr\/bin\/node [^\n]*tandem|hook opencode/;
/** opencode's own permission prompt. */
const DIALOG = /Permission required|Allow once|Always allow/i;

let bin: string;
let fake: CopilotFake;
const open: Tui[] = [];

beforeAll(async () => {
  bin = await ensureOpencode();
  fake = await startCopilotFake();
  fake.script(steps(opencodeReply));
});

afterEach(async () => {
  for (const t of open.splice(0)) await t.kill();
});

afterAll(async () => {
  await fake?.close();
});

type Call = { function?: { name?: string; arguments?: string } };
type Msg = { role: string; content?: unknown; tool_calls?: Call[] };
const textOf = (c: unknown) =>
  typeof c === "string"
    ? c
    : Array.isArray(c)
      ? c.map((x) => (x as { text?: string }).text ?? "").join("")
      : "";
const bash = (command: string): CopilotReply => ({ call: "bash", args: { command, description: "ritual" } });

/**
 * opencode's model: `WRITE <abs path>` writes the file; Tandem's follow-up is obeyed with `tandem
 * task`, `tandem status` and the box quoted.
 */
function opencodeReply(req: ChatRequest): CopilotReply {
  const msgs = (req.body.messages ?? []) as Msg[];
  const last = msgs[msgs.length - 1];
  if (last?.role === "tool") {
    const call = msgs[msgs.length - 2]?.tool_calls?.[0]?.function;
    const args = JSON.parse(call?.arguments ?? "{}") as { command?: string };
    if (args.command?.startsWith("tandem task")) return bash("tandem status");
    if (args.command?.startsWith("tandem status")) return { text: `${DONE}\n${req.lastToolResult.trim()}` };
    return { text: DONE };
  }
  const text = textOf(last?.content);
  if (text.includes(REMEDIATION_LEAD)) return bash(`tandem task "${TASK}"`);
  const write = /WRITE (\/\S+?\.txt)/.exec(text);
  if (write) return { call: "write", args: { filePath: write[1], content: "hello\n" } };
  return { text: "Fine." };
}

function opencodeEnvFor(p: Project, home: string): Record<string, string> {
  for (const d of [".config", ".local/share", ".cache", ".local/state"])
    mkdirSync(join(home, d), { recursive: true });
  return {
    ...terminalEnv(p, home),
    // opencode takes its project from $PWD (docs/clients.md §16.4).
    PWD: p.repo,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_CONFIG_CONTENT: opencodeConfig(fake.url),
    npm_config_offline: "true",
  };
}

/**
 * The screen from the prompt's echo on. opencode draws on the alternate screen (no scrollback), so
 * once the echo scrolled away the whole screen is this turn's.
 */
const fromEcho = (screen: string, prompt: string) => screen.slice(Math.max(0, screen.lastIndexOf(prompt)));
const LONG = { timeoutMs: 150_000, stableMs: 3000 };
/** A toast lasts 20 s: caught at once, not after a quiet spell. */
const LONG_NOW = { timeoutMs: 150_000 };

interface World {
  p: Project;
  ui: Tui;
  writeF: string;
}

/**
 * One attempt: a fresh repository with a live peer holding f.txt, the TUI started in it and, once it
 * shows its prompt, the first order typed. It has started when that order reached the model.
 */
function attempt(n: number) {
  const p = initProject("opencode", { onPath: true });
  peerHolds(p, "f.txt");
  const home = join(p.base, "home");
  mkdirSync(home, { recursive: true });
  const env = opencodeEnvFor(p, home);
  const ui = Tui.start({ test: `opencode-session-${n}`, cmd: bin, args: [], cwd: p.repo, env });
  open.push(ui);
  const writeF = `WRITE ${join(p.repo, "f.txt")}`;
  const from = fake.requests.length;
  let stopped = false;
  // Typed in the background: the bound runs meanwhile, so a UI that never draws its prompt is frozen too.
  void (async () => {
    await ui.waitFor("started", (s) => stopped || /Ask anything/.test(s), {
      timeoutMs: 600_000,
      stableMs: 2000,
    });
    if (stopped) return;
    ui.type(writeF);
    await ui.waitFor("typed", (s) => stopped || s.includes(writeF), { timeoutMs: 600_000 });
    if (!stopped) ui.key("Enter");
  })().catch(() => {
    // Never drawn within 600 s: the bound has long reported it frozen.
  });
  return {
    value: { p, ui, writeF } satisfies World,
    agentRequests: () => agentRequestsSince(fake.requests, from),
    exited: () => false,
    evidence: () => `screen saved in ${ui.capture("frozen").file}`,
    stop: async () => {
      stopped = true;
      await ui.kill();
      stopResidentServer(p.repo);
    },
  };
}

describe("Tandem inside the real opencode terminal UI", () => {
  it("refuses a peer's file with Tandem's reason, runs the ritual it sends as a follow-up, and leaves the file as left work after /exit", async () => {
    const { p, ui, writeF } = await startOpencode("the TUI", attempt, {
      onFrozen: (_n, why) => console.warn(`opencode TUI froze at start-up (${why}); retrying`),
    });

    // Scene 1: the peer's file, refused by the plugin; the TUI shows the model's error to no one, so
    // Tandem's reason reaches the person as a toast (docs/clients.md §16.3).
    const toast = await ui.waitFor("toast", /Tandem refused this edit/, LONG_NOW);
    expect(toast).toMatch(/f\.txt: held by/);
    expect(toast).toMatch(/agent-\w+ \(claude-code/);
    const refused = fromEcho(
      await ui.waitFor("refused", (s) => fromEcho(s, writeF).includes(DONE), LONG),
      writeF,
    );
    expect(refused).not.toMatch(DIALOG);
    expect(refused).not.toMatch(INTERNAL);
    expect(p.read("f.txt")).toBe("peer\n");

    // Scene 2: a free file; the turn ends dirty and Tandem's follow-up runs the ritual.
    const writeG = `WRITE ${join(p.repo, "g.txt")}`;
    ui.type(writeG);
    await ui.waitFor("typed-g", (s) => s.includes(writeG), { timeoutMs: 60_000 });
    ui.key("Enter");
    const mine = async () => (await sessions(p)).find((s) => s.client === "opencode");
    const verdicts = () =>
      ledgerEvents(p.repo)
        .filter((e) => e.client === "opencode" && e.kind === "turn.stopped")
        .map((e) => e.data.verdict);
    // Scene 1's turn passed (no tool ran); this one is blocked, told by follow-up, and passes.
    await until("the ritual ran and the turn passed", () => verdicts().join() === "pass,block,pass", 200_000);
    const turn = await ui.waitFor("ritual", /task set — writing files[\s\S]*\| claims {3}1: g\.txt/, LONG);
    // The follow-up is a prompt of the person's side, not an error: no error wording around it.
    expect(turn).not.toMatch(/error|failed/i);
    expect(turn).not.toMatch(DIALOG);
    expect(turn).not.toMatch(INTERNAL);
    expect(p.read("g.txt")).toBe("hello\n");
    expect((await mine())?.task).toBe(TASK);

    // Scene 3: the person exits; a person's status lists g.txt as the ended session's left work.
    const session = (await mine())!;
    ui.type("/exit");
    await ui.waitFor("typed-exit", (s) => s.includes("/exit"), { timeoutMs: 60_000 });
    ui.key("Enter");
    await until(
      "the opencode session ends after /exit",
      async () => (await sessions(p)).some((s) => s.nativeId === session.nativeId && s.ended),
      90_000,
    );
    ui.capture("after-exit");
    expectLeftWork(p, "g.txt", "hello\n", { name: session.name, client: "opencode", task: TASK });
    stopResidentServer(p.repo);
  }, 1_500_000);
});
