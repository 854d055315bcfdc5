import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type ChatRequest,
  type CopilotFake,
  type CopilotReply,
  startCopilotFake,
} from "../e2e/harness/copilot-fake.js";
import { ensureQwenCode } from "../e2e/harness/install-clients.js";
import { qwenCommand, qwenOffline } from "../e2e/harness/run-qwen.js";
import { initProject, ledgerEvents, type Project } from "../e2e/support.js";
import { Tui, until } from "./driver.js";
import { DONE, steps } from "./fake-replies.js";
import { stopResidentServer } from "./gemini-ui.js";
import { expectLeftWork } from "./left-checks.js";
import { peerHolds, sessions, terminalEnv } from "./world.js";

/**
 * Issue 38's three scenes in the real Qwen Code 0.24.4 terminal UI, in its default approval mode
 * ("Ask permissions"): a peer's file refused before any dialog (PermissionRequest, decision 0066),
 * a turn that leaves an uncommitted file and runs the ritual with no prompt for it, and `/quit`
 * followed by a person's `tandem status`.
 */

const TASK = "writing files";
/** What a person must never see from Tandem: its internal command line. */
const INTERNAL = /tandem\.cjs|\/usr\/bin\/node [^\n]*tandem|hook qwen-code/;
/** Qwen's own approval dialogs. */
const DIALOG = /Apply this change\?|Allow execution/;

let entry: string;
let fake: CopilotFake;
const open: Tui[] = [];

beforeAll(async () => {
  entry = await ensureQwenCode();
  fake = await startCopilotFake();
  fake.script(steps(qwenReply));
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
const shell = (command: string): CopilotReply => ({
  call: "run_shell_command",
  args: { command, description: "ritual", is_background: false },
});

/**
 * Qwen's model: `WRITE <abs path>` reads the file (Qwen refuses to overwrite an unread one) and
 * writes it; Tandem's Stop reason is obeyed with `tandem task`, `tandem status` and the box quoted.
 */
function qwenReply(req: ChatRequest): CopilotReply {
  const msgs = (req.body.messages ?? []) as Msg[];
  const last = msgs[msgs.length - 1];
  if (last?.role === "tool") {
    const call = msgs[msgs.length - 2]?.tool_calls?.[0]?.function;
    const args = JSON.parse(call?.arguments ?? "{}") as { file_path?: string; command?: string };
    if (call?.name === "read_file")
      return { call: "write_file", args: { file_path: args.file_path, content: "hello\n" } };
    if (args.command?.startsWith("tandem task")) return shell("tandem status");
    if (args.command?.startsWith("tandem status")) return { text: `${DONE}\n${boxOf(req.lastToolResult)}` };
    return { text: DONE };
  }
  const text = textOf(last?.content);
  if (/end-of-turn ritual is incomplete/.test(text)) return shell(`tandem task "${TASK}"`);
  const write = /WRITE (\/\S+?\.txt)/.exec(text);
  if (write) return { call: "read_file", args: { file_path: write[1] } };
  return { text: "Fine." };
}

/** The status box out of Qwen's shell result (`Command: …\nDirectory: …\nOutput: <stdout>…`). */
function boxOf(result: string): string {
  const out = /Output: ([\s\S]*?)(?:\n(?:Error|Exit Code|Signal|Background PIDs|Process Group PGID):|$)/.exec(
    result,
  );
  return (out?.[1] ?? result).trim();
}

function startQwen(test: string, p: Project): Tui {
  const home = join(p.base, "home");
  mkdirSync(home, { recursive: true });
  const env = { ...terminalEnv(p, home), ...qwenOffline(fake.url) };
  const args = [qwenCommand(entry), "--auth-type", "openai", "--approval-mode", "default"];
  const t = Tui.start({ test, cmd: process.execPath, args, cwd: p.repo, env });
  open.push(t);
  return t;
}

/** Types a prompt, waits until it shows in the input, then sends it. */
async function send(ui: Tui, text: string): Promise<void> {
  ui.type(text);
  await ui.waitFor("typed", (s) => s.includes(text), { timeoutMs: 60_000 });
  ui.key("Enter");
}

const fromEcho = (screen: string, prompt: string) => screen.slice(screen.lastIndexOf(`> ${prompt}`));
const LONG = { timeoutMs: 150_000, stableMs: 3000 };

describe("Tandem inside the real Qwen Code terminal UI, default approval mode", () => {
  it("refuses a peer's file before any dialog, runs the ritual without a prompt, and leaves the file as left work after /quit", async () => {
    const p = initProject("qwen-code", { onPath: true });
    peerHolds(p, "f.txt");
    const ui = startQwen("qwen-session", p);
    await ui.waitFor("started", (s) => /Ask permissions/.test(s) && !/Initializing/.test(s), LONG);

    // Scene 1: the peer's file, refused at PermissionRequest with Tandem's reason, no dialog.
    const writeF = `WRITE ${join(p.repo, "f.txt")}`;
    await send(ui, writeF);
    const refused = fromEcho(
      await ui.waitFor("refused", (s) => fromEcho(s, writeF).includes(DONE) || DIALOG.test(s), LONG),
      writeF,
    );
    expect(refused).not.toMatch(DIALOG);
    expect(refused).toContain("Tandem refused this edit");
    expect(refused).toMatch(/f\.txt: held by agent-\w+ \(claude-code/);
    expect(refused).not.toMatch(INTERNAL);
    expect(p.read("f.txt")).toBe("peer\n");

    // Scene 2: a free file; the person approves their own write, the ritual runs with no dialog.
    const writeG = `WRITE ${join(p.repo, "g.txt")}`;
    await send(ui, writeG);
    await ui.waitFor("asked", (s) => /Apply this change\?/.test(fromEcho(s, writeG)), LONG);
    ui.key("Enter");
    const mine = async () => (await sessions(p)).find((s) => s.client === "qwen-code");
    await until(
      "the ritual ran and the turn passed",
      () =>
        ledgerEvents(p.repo).some(
          (e) => e.client === "qwen-code" && e.kind === "turn.stopped" && e.data.verdict === "pass",
        ),
      150_000,
    );
    const turn = fromEcho(
      await ui.waitFor("ritual", (s) => /tandem status/.test(fromEcho(s, writeG)), LONG),
      writeG,
    );
    expect(turn).not.toMatch(/Allow execution/);
    // Qwen 0.24.4 labels a blocking Stop's reason itself (docs/clients.md §15.3): a known limitation.
    expect(turn).toMatch(
      /Stop hook error: Tandem: this turn used tools, but the end-of-turn ritual is incomplete/,
    );
    // Qwen folds a finished command's output away at times, so the screen proves the command ran
    // without a dialog and the store proves what it did (the task, below).
    expect(turn).toMatch(/Shell tandem task "writing files"/);
    expect(turn).not.toMatch(INTERNAL);
    expect(p.read("g.txt")).toBe("hello\n");
    expect((await mine())?.task).toBe(TASK);

    // Scene 3: the person quits; a person's status lists g.txt as the ended session's left work.
    const session = (await mine())!;
    await send(ui, "/quit");
    await until(
      "the Qwen session ends after /quit",
      async () => (await sessions(p)).some((s) => s.nativeId === session.nativeId && s.ended),
      60_000,
    );
    ui.capture("after-quit");
    expectLeftWork(p, "g.txt", "hello\n", { name: session.name, client: "qwen-code", task: TASK });
    stopResidentServer(p.repo);
  });
});
