import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ClientBins, ensureClients } from "../e2e/harness/install-clients.js";
import { type ResponsesFake, startResponsesFake } from "../e2e/harness/responses-fake.js";
import { trustCodexHooks, writeCodexConfig } from "../e2e/harness/run-codex.js";
import { initProject, type Project } from "../e2e/support.js";
import { Tui, until } from "./driver.js";
import { codexReply, DONE, REPLY, steps } from "./fake-replies.js";
import { declareTask, expectLeftWork, LEFT_TASK } from "./left-checks.js";
import { CODEX_NOTICES, codexDaemonPid, peerHolds, sessions, stopCodexDaemon, terminalEnv } from "./world.js";

const COMMAND_PATH = /tandem\.cjs|\/usr\/bin\/node|hook codex/;

let bins: ClientBins;
let fake: ResponsesFake;
/**
 * One CODEX_HOME and one project: the UI installs its app-server daemon into CODEX_HOME (a ~400 MB
 * copy) and starts it, as on a person's machine; every UI then talks to that one daemon.
 */
let codexHome: string;
let p: Project;
const open: Tui[] = [];
const tierStart = Date.now();

beforeAll(async () => {
  bins = await ensureClients();
  fake = await startResponsesFake();
  fake.script(steps(codexReply));
  // Not a tempDir(): those go after each test, while the daemon may still be writing into it.
  codexHome = mkdtempSync(join(tmpdir(), "tui-codex-home-"));
  p = initProject("codex");
  await prepare(p);
});

afterEach(async () => {
  for (const t of open.splice(0)) await t.kill();
});

afterAll(async () => {
  // The daemon outlives its UIs by design.
  if (codexHome) {
    await stopCodexDaemon(codexHome);
    rmSync(codexHome, { recursive: true, force: true });
  }
  await fake?.close();
  console.log(`tui: Codex tier wall time ${Date.now() - tierStart} ms`);
});

/** Trusted project and hooks, first-run notices answered: the UI opens straight at its prompt. */
async function prepare(p: Project): Promise<void> {
  writeCodexConfig({ codexHome, baseUrl: fake.url, cwd: p.repo });
  appendFileSync(join(codexHome, "config.toml"), `\n${CODEX_NOTICES}`);
  await trustCodexHooks({ bin: bins.codex, codexHome, cwd: p.repo, env: p.env });
}

function startCodex(test: string): Tui {
  const home = join(p.base, "home");
  mkdirSync(home, { recursive: true });
  const env = { ...terminalEnv(p, home), CODEX_HOME: codexHome, MOCK_API_KEY: "fake" };
  const t = Tui.start({ test, cmd: bins.codex, args: [], cwd: p.repo, env });
  open.push(t);
  return t;
}

/** The transcript from the newest echo of `prompt` (the status line also names the thread's first prompt). */
const fromEcho = (s: string, prompt: string) => s.slice(s.lastIndexOf(`› ${prompt}`));
/** Codex shows "Worked for …" under a finished turn. */
const finished = (s: string, prompt: string) => /Worked for/.test(fromEcho(s, prompt));

/** Ready for a prompt: the status line names the model once the UI has its thread. */
const READY = /GPT-5\.5 default/;

async function turn(ui: Tui, label: string, prompt: string): Promise<string> {
  await ui.say(prompt);
  // An Enter typed while the UI is still settling can be lost: press it again until the turn runs.
  for (let i = 0; i < 3; i++) {
    try {
      await ui.waitFor(`${label}-running`, (x) => /\n\s*•/.test(fromEcho(x, prompt)), { timeoutMs: 4000 });
      break;
    } catch {
      ui.key("Enter");
    }
  }
  const s = await ui.waitFor(label, (x) => finished(x, prompt), { stableMs: 1000 });
  return fromEcho(s, prompt);
}

const codexSessions = async () => (await sessions(p)).filter((s) => s.client === "codex");

describe("Tandem inside the real Codex terminal UI", () => {
  // One test: the temp dirs (CODEX_HOME with its running daemon, the project) are removed after each.
  it("answers without Tandem noise, shows a refusal as a block with Tandem's reason, and ends the session within seconds when the person quits or closes the terminal, though Codex's app-server lingers", async () => {
    peerHolds(p, "f.txt");
    const ui = startCodex("codex-session");
    await ui.waitFor("started", READY, { stableMs: 1000 });
    const plain = await turn(ui, "plain-reply", "hello");
    expect(plain).toContain(REPLY);
    expect(plain).not.toMatch(/Tandem|[Hh]ook/);

    const refused = await turn(ui, "refused", "PATCH f.txt");
    expect(refused).toContain(DONE);
    expect(refused).toMatch(/Blocked by hook/);
    expect(refused).toContain("Tandem refused this edit");
    expect(refused).not.toMatch(COMMAND_PATH);
    // The reason is the model's text, unbroken: Codex's terminal may wrap it, but Tandem adds no breaks.
    expect(refused).toMatch(/held by agent-\S+ \(.*last seen/);
    // Codex's terminal wraps long lines: read the reason with its wraps joined.
    expect(refused.replace(/\s+/g, " ")).toContain("coordinate with the user");
    expect(p.read("f.txt")).toBe("peer\n");
    await ui.kill();

    for (const how of ["quit", "terminal"] as const) {
      const earlier = new Set((await codexSessions()).map((s) => s.nativeId));
      const ui = startCodex(`codex-${how}`);
      await ui.waitFor("started", READY, { stableMs: 1000 });
      await turn(ui, "replied", `PATCH ${how}.txt`);
      const mine = (await codexSessions()).find((s) => !earlier.has(s.nativeId));
      expect(mine?.live, "the Codex session is live while its UI runs").toBe(true);
      const daemon = codexDaemonPid(codexHome);
      // The /quit session ends with its file uncommitted (issue 26).
      if (how === "quit") declareTask(p, mine!.name);
      if (how === "quit") await ui.say("/quit");
      else await ui.kill();
      await until(
        `the session is no longer live after ${how}`,
        async () => !(await codexSessions()).some((s) => s.nativeId === mine!.nativeId && s.live),
        30_000,
      );
      // Asserted as behaviour: the 30 s wait is far below the 600 s freshness, so only the UI's
      // end can have ended it; how soon is the bench's to measure, not a test's.
      // The ghost this guards against: hooks run under the daemon, which is still up.
      if (daemon) expect(codexDaemonPid(codexHome)).toBe(daemon);
      if (how === "quit")
        expectLeftWork(p, "quit.txt", "hello\n", { name: mine!.name, client: "codex", task: LEFT_TASK });
    }
  });
});
