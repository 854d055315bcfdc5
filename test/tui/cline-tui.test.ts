import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { procInfo } from "../../src/sessions/proc.js";
import {
  type ChatRequest,
  type CopilotFake,
  type CopilotReply,
  startCopilotFake,
} from "../e2e/harness/copilot-fake.js";
import { ensureCline } from "../e2e/harness/install-clients.js";
import { initProject, ledgerEvents, type Project } from "../e2e/support.js";
import { tandem } from "../helpers/cli.js";
import { freePort, seedClineHome, stopClineHub } from "./cline-ui.js";
import { Tui, until } from "./driver.js";
import { DONE, steps } from "./fake-replies.js";
import { stopResidentServer } from "./gemini-ui.js";
import { expectLeftWork } from "./left-checks.js";
import { peerHolds, sessions, terminalEnv } from "./world.js";

/**
 * Issue 38's three scenes in the real Cline CLI 3.0.65 terminal UI, started as a person starts it
 * (`cline`, its default hub backend): a peer's file refused with Tandem's reason (the plugin's skip,
 * decision 0066), a turn that leaves an uncommitted file and runs the ritual Tandem told the model
 * with its first tool result, and Ctrl-C (Cline sends no end event) followed by a person's
 * `tandem status`.
 */

const TASK = "writing files";
/** What a person must never see from Tandem: its internal command line. */
const INTERNAL = /tandem\.cjs|\/usr\/bin\/node [^\n]*tandem|hook cline/;
/** The schema error a refusal showed before the plugin (issue 38). */
const SCHEMA = /Invalid input|expected string, received undefined/;
/** Cline's approval dialog (`[y] Approve` / `[n] Deny`); with its default auto-approve it must never show. */
const DIALOG = /\[y\] Approve|\[n\] Deny/;

let bin: string;
let fake: CopilotFake;
const open: { ui: Tui; port: number; repo: string }[] = [];

beforeAll(async () => {
  bin = await ensureCline();
  fake = await startCopilotFake();
  fake.script(steps(clineReply));
});

afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.ui.kill();
    await stopClineHub(o.port);
    stopResidentServer(o.repo);
  }
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
const shell = (command: string): CopilotReply => ({ call: "run_commands", args: { commands: [command] } });

/**
 * Cline's model: `WRITE <abs path>` writes the file with `editor`. After an edit that went through,
 * it obeys the ritual if (and only if) Tandem's brief came with the tool result: `tandem task`, then
 * `tandem status`, then a reply quoting the box. A refused edit ends the turn with a plain reply.
 */
function clineReply(req: ChatRequest): CopilotReply {
  const msgs = (req.body.messages ?? []) as Msg[];
  const lastAssistant = msgs.map((m) => m.role).lastIndexOf("assistant");
  const since = msgs.slice(lastAssistant + 1);
  if (lastAssistant >= 0 && since.some((m) => m.role === "tool")) {
    const call = msgs[lastAssistant]?.tool_calls?.[0]?.function;
    const args = JSON.parse(call?.arguments ?? "{}") as { commands?: string[] };
    const command = args.commands?.[0] ?? "";
    if (command.startsWith("tandem task")) return shell("tandem status");
    if (command.startsWith("tandem status")) return { text: `${DONE}\n${outputOf(req.lastToolResult)}` };
    const told = since.some((m) => textOf(m.content).includes('task "<what you are working on>"'));
    if (call?.name === "editor" && told && !/Tandem refused/.test(req.lastToolResult))
      return shell(`tandem task "${TASK}"`);
    return { text: DONE };
  }
  const write = /WRITE (\/\S+?\.txt)/.exec(since.map((m) => textOf(m.content)).join("\n"));
  if (write) return { call: "editor", args: { path: write[1], new_text: "hello\n" } };
  return { text: "Fine." };
}

/** A command's output out of Cline's `run_commands` result (`{"query", "result", "success"}`, or a list of them). */
function outputOf(result: string): string {
  try {
    const parsed = JSON.parse(result) as { result?: unknown } | { result?: unknown }[];
    const first = Array.isArray(parsed) ? parsed[0] : parsed;
    return typeof first?.result === "string" ? first.result.trim() : result.trim();
  } catch {
    return result.trim();
  }
}

async function startCline(test: string, p: Project): Promise<Tui> {
  const home = join(p.base, "home");
  mkdirSync(home, { recursive: true });
  seedClineHome(home, fake.url);
  const port = await freePort();
  const env = {
    ...terminalEnv(p, home),
    CLINE_NO_AUTO_UPDATE: "1",
    // The hub daemon the UI starts listens here, not on the person's 25463 (stopped after the test).
    CLINE_HUB_PORT: String(port),
    // Cline gives its plugin sandbox 4 s to start, then runs without plugins (docs/clients.md §14.6).
    CLINE_PLUGIN_IMPORT_TIMEOUT_MS: "60000",
  };
  const ui = Tui.start({ test, cmd: bin, args: [], cwd: p.repo, env });
  open.push({ ui, port, repo: p.repo });
  return ui;
}

/** The input box's line: `❯ ` then what is typed, or the placeholder. */
const inputLine = (s: string) => s.slice(s.lastIndexOf("❯ "));

/** Types a prompt, waits until it shows in the input, then sends it and waits until Cline took it. */
async function send(ui: Tui, text: string): Promise<void> {
  ui.type(text);
  await ui.waitFor("typed", (s) => inputLine(s).includes(text), { timeoutMs: 60_000 });
  ui.key("Enter");
  await ui.waitFor("sent", (s) => !inputLine(s).includes(text), { timeoutMs: 60_000 });
}

/** The screen from the prompt's echo on. */
const fromEcho = (screen: string, prompt: string) => screen.slice(Math.max(0, screen.lastIndexOf(prompt)));
const LONG = { timeoutMs: 150_000, stableMs: 3000 };

describe("Tandem inside the real Cline terminal UI", () => {
  it("refuses a peer's file with Tandem's reason, runs the ritual, and leaves the file as left work after Ctrl-C", async () => {
    const p = initProject("cline", { onPath: true });
    peerHolds(p, "f.txt");
    const ui = await startCline("cline-session", p);
    await ui.waitFor("started", /What can I do for you\?/, LONG);

    // Scene 1: the peer's file, skipped by Tandem's plugin with Tandem's reason as the call's result.
    const writeF = `WRITE ${join(p.repo, "f.txt")}`;
    await send(ui, writeF);
    const refused = fromEcho(
      await ui.waitFor("refused", (s) => fromEcho(s, writeF).includes(DONE), LONG),
      writeF,
    );
    // Cline shows one line of a skipped call's reason, labelled by Cline as its error (§14.6):
    // Tandem's headline there names the holder and what to do.
    expect(refused).toMatch(
      /Error: Tandem refused: f\.txt is held by agent-\w+ \(claude-code\); work on other files or wait until it commits\./,
    );
    expect(refused).not.toMatch(SCHEMA);
    expect(refused).not.toMatch(DIALOG);
    expect(refused).not.toMatch(INTERNAL);
    expect(p.read("f.txt")).toBe("peer\n");

    // Scene 2: a free file; the first tool result told the model the ritual, which it runs.
    const writeG = `WRITE ${join(p.repo, "g.txt")}`;
    await send(ui, writeG);
    const mine = async () => (await sessions(p)).find((s) => s.client === "cline");
    const turn = fromEcho(
      await ui.waitFor("ritual", (s) => fromEcho(s, writeG).includes(DONE), LONG),
      writeG,
    );
    expect(turn).toMatch(/tandem task "writing files"/);
    expect(turn).toMatch(/task set — writing files/);
    // The box the model was told to show, quoted at the end of its reply.
    expect(turn).toMatch(/\| claims {3}1: g\.txt/);
    // The ritual reaches the model as a tool result, not an error: no error wording around it.
    expect(turn).not.toMatch(/error|failed/i);
    expect(turn).not.toMatch(DIALOG);
    expect(turn).not.toMatch(INTERNAL);
    expect(p.read("g.txt")).toBe("hello\n");
    expect((await mine())?.task).toBe(TASK);
    // Observed (decision 0039): this turn ran the ritual and passes. Scene 1's turn passes too: its
    // only call was refused and nothing ran, though Cline reported the skipped call as completed.
    const verdicts = () =>
      ledgerEvents(p.repo)
        .filter((e) => e.client === "cline" && e.kind === "turn.stopped")
        .map((e) => e.data.verdict);
    await until("both turns' ends are recorded", () => verdicts().length === 2, 60_000);
    expect(verdicts()).toEqual(["pass", "pass"]);

    // Scene 3: Ctrl-C, with no end event; the UI's exit ends the session (decision 0059).
    const session = (await mine())!;
    const summary = await ctrlC(ui);
    expect(summary).not.toMatch(INTERNAL);
    await until(
      "the Cline session is gone after its UI exited",
      async () => (await sessions(p)).some((s) => s.nativeId === session.nativeId && !s.live),
      60_000,
    );
    // One verdict: the file is left work, never also a stale session's claim.
    const status = tandem(["status"], { cwd: p.repo, env: { TANDEM_SESSION: undefined } });
    expect(status.stdout).not.toMatch(/Stale sessions/);
    expectLeftWork(p, "g.txt", "hello\n", { name: session.name, client: "cline", task: TASK });
  });
});

/**
 * Quits as a person does: Ctrl-C, which at Cline 3.0.65's idle prompt exits and prints a session
 * summary. Once in about ten runs on a loaded machine it stayed up for minutes; a person presses
 * Ctrl-C again, and so does this, saving the screen it saw (`…-TIMEOUT`) and saying so.
 */
async function ctrlC(ui: Tui): Promise<string> {
  const pid = ui.panePid();
  const gone = (s: string) => !running(pid) && /Session Summary/.test(s);
  for (let press = 1; press < 3; press++) {
    ui.key("C-c");
    try {
      return await ui.waitFor("after-ctrl-c", gone, { timeoutMs: 20_000 });
    } catch (e) {
      console.warn(`Cline did not exit on Ctrl-C press ${press}: ${String(e)}`);
    }
  }
  ui.key("C-c");
  try {
    return await ui.waitFor("after-ctrl-c", gone, { timeoutMs: 60_000 });
  } catch (e) {
    // Cline's own exit path hung (not Tandem's: no hook runs at exit). A person would close the
    // terminal; so does this, loudly, and the scene goes on to what Tandem must make of a UI that
    // ended without an end event.
    console.warn(`Cline ignored three Ctrl-C presses; closing it as a closed terminal would: ${String(e)}`);
    for (const signal of ["SIGHUP", "SIGKILL"] as const) {
      if (!running(pid)) break;
      process.kill(pid, signal);
      await until(`Cline to end after ${signal}`, () => !running(pid), 10_000).catch(() => {});
    }
    expect(running(pid), "Cline survived SIGHUP and SIGKILL").toBe(false);
    return ui.capture("after-closing").text;
  }
}

/** Running, and not a zombie waiting to be collected (procInfo reads its state). */
const running = (pid: number): boolean => procInfo(pid) !== null;
