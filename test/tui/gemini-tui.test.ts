import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type GeminiFake, startGeminiFake } from "../e2e/harness/gemini-fake.js";
import { ensureGemini } from "../e2e/harness/install-clients.js";
import { GEMINI_MODEL, writeGeminiHome } from "../e2e/harness/run-gemini.js";
import { initProject, type Project } from "../e2e/support.js";
import { tandem } from "../helpers/cli.js";
import { Tui, until } from "./driver.js";
import { DONE, geminiReply, REPLY, steps } from "./fake-replies.js";
import { stopResidentServer } from "./gemini-ui.js";
import { expectLeftWork } from "./left-checks.js";
import { peerHolds, sessions, terminalEnv } from "./world.js";

/** What a person must never see from Tandem: its internal command line or marker. */
const INTERNAL = /tandem\.cjs|\/usr\/bin\/node|hook gemini-cli|\[tandem:/;

let entry: string;
let fake: GeminiFake;
const open: Tui[] = [];
const tierStart = Date.now();

beforeAll(async () => {
  entry = await ensureGemini();
  fake = await startGeminiFake();
  fake.script(steps(geminiReply));
});

afterEach(async () => {
  for (const t of open.splice(0)) await t.kill();
});

afterAll(async () => {
  await fake?.close();
  console.log(`tui: Gemini CLI tier wall time ${Date.now() - tierStart} ms`);
});

/**
 * A person's machine: Gemini trusts the project and `tandem init` ran there with this home, so
 * Gemini's allow rule for the ritual is in the user's policies (decision 0031).
 */
function prepare(p: Project): string {
  const home = join(p.base, "home");
  mkdirSync(home, { recursive: true });
  writeGeminiHome(home, [p.repo]);
  const init = tandem(["init", "--command", "tandem", "--clients", "gemini-cli"], {
    cwd: p.repo,
    env: { PATH: p.path, HOME: home, GEMINI_CLI_HOME: undefined },
  });
  expect(init.code, init.stderr).toBe(0);
  return home;
}

function startGemini(test: string, p: Project, home: string): Tui {
  const env = {
    ...terminalEnv(p, home),
    GEMINI_API_KEY: "fake",
    GOOGLE_GEMINI_BASE_URL: fake.url,
    GEMINI_CLI_NO_RELAUNCH: "true",
  };
  const args = [entry, "-m", GEMINI_MODEL, "--approval-mode", "auto_edit"];
  const t = Tui.start({ test, cmd: process.execPath, args, cwd: p.repo, env });
  open.push(t);
  return t;
}

/** Gemini shows "esc to cancel" while a turn runs, "Executing Hook" while a hook does, and a dialog while it asks. */
const idle = (s: string) =>
  /Type your message/.test(s) && !/esc to cancel|Executing Hook|Allow execution/i.test(s);
const TURN = { stableMs: 2000, timeoutMs: 120_000 };
/**
 * Types a prompt and makes sure it was submitted: the text shows in the input first (a busy UI
 * draws it late), then the input shows its placeholder again once Gemini took it. An Enter typed
 * while the UI is busy can be lost; it is pressed again.
 */
async function send(ui: Tui, prompt: string): Promise<void> {
  ui.type(prompt);
  await ui.waitFor("typed", (s) => s.includes(`> ${prompt}`), { timeoutMs: 60_000 });
  for (let i = 0; i < 6; i++) {
    ui.key("Enter");
    try {
      await ui.waitFor("sent", (s) => !s.slice(s.lastIndexOf("─")).includes(`> ${prompt}`), {
        timeoutMs: 10_000,
      });
      return;
    } catch {
      // Not taken yet: press Enter again.
    }
  }
}

/** The transcript after the newest echo of `prompt`: what that turn showed. */
const fromEcho = (screen: string, prompt: string) => screen.slice(screen.lastIndexOf(`> ${prompt}`));

describe("Tandem inside the real Gemini CLI terminal UI", () => {
  it("answers without noise, shows a refusal in the transcript, runs the ritual with no prompt after a plain block, and leaves its file as left work after /quit", async () => {
    const p = initProject("gemini-cli", { onPath: true });
    const home = prepare(p);
    peerHolds(p, "f.txt");
    const ui = startGemini("gemini-session", p, home);
    await ui.waitFor("started", idle, { stableMs: 1000, timeoutMs: 120_000 });

    await send(ui, "hello");
    const plain = fromEcho(
      await ui.waitFor("plain-reply", (s) => fromEcho(s, "hello").includes(REPLY) && idle(s), TURN),
      "hello",
    );
    expect(plain).not.toMatch(/Tandem|[Hh]ook/);

    const writeF = `WRITE ${join(p.repo, "f.txt")}`;
    await send(ui, writeF);
    const refused = fromEcho(
      await ui.waitFor("refused", (s) => fromEcho(s, writeF).includes(DONE) && idle(s), TURN),
      writeF,
    );
    expect(refused).toContain("Tandem refused this edit");
    expect(refused).toMatch(/f\.txt: held by agent-/);
    expect(refused).not.toMatch(INTERNAL);
    expect(p.read("f.txt")).toBe("peer\n");

    const writeG = `WRITE ${join(p.repo, "g.txt")}`;
    await send(ui, writeG);
    const ritual = fromEcho(
      await ui.waitFor(
        "ritual",
        (s) => /task set/.test(fromEcho(s, writeG)) && /tandem status:/.test(fromEcho(s, writeG)) && idle(s),
        TURN,
      ),
      writeG,
    );
    expect(ritual).toMatch(
      /Agent execution blocked: Tandem: this turn used tools, but the end-of-turn ritual is incomplete/,
    );
    // Gemini 0.61.0 has no neutral channel for the ritual: its UI adds this note to a blocked run at
    // the default error verbosity (docs/clients.md §13.3, decision 0031). Asserted where it appears,
    // so a Gemini that drops it shows up here.
    expect(ritual).toMatch(/This request failed\. Press F12/);
    expect(ritual).not.toMatch(INTERNAL);
    expect(ritual).not.toMatch(/Allow execution/);
    expect(p.read("g.txt")).toBe("hello\n");
    const mine = (await sessions(p)).find((s) => s.client === "gemini-cli" && s.live);
    expect(mine).toBeDefined();

    await send(ui, "/quit");
    await until(
      "the Gemini session ends after /quit",
      async () => (await sessions(p)).some((s) => s.nativeId === mine!.nativeId && s.ended),
      60_000,
    );
    await until(
      "Gemini exits after /quit",
      () => !/Type your message/.test(ui.capture("quitting").text),
      60_000,
    );
    // Not asserted: Gemini 0.61.0 sometimes prints its own debug line "Hook execution for
    // SessionEnd: 1 hooks executed successfully…" after its UI unmounts (issue 26, still open).
    ui.capture("after-quit");
    // A person's status, doctor and watch list g.txt once, as the ended session's left work.
    expectLeftWork(p, "g.txt", "hello\n", { name: mine!.name, client: "gemini-cli", task: "writing files" });
    stopResidentServer(p.repo);
  });
});
