import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type AnthropicFake, startAnthropicFake } from "../e2e/harness/anthropic-fake.js";
import { type ClientBins, ensureClients } from "../e2e/harness/install-clients.js";
import { initProject, type Project } from "../e2e/support.js";
import { Tui, until } from "./driver.js";
import { claudeReply, DONE, REPLY, steps } from "./fake-replies.js";
import { declareTask, expectLeftWork, LEFT_TASK } from "./left-checks.js";
import { peerHolds, seedClaudeHome, sessions, terminalEnv } from "./world.js";

/** What a person must never see from Tandem: its internal command line. */
const COMMAND_PATH = /tandem\.cjs|\/usr\/bin\/node|hook claude-code/;

let bins: ClientBins;
let fake: AnthropicFake;
const open: Tui[] = [];
const tierStart = Date.now();

beforeAll(async () => {
  bins = await ensureClients();
  fake = await startAnthropicFake();
  fake.script(steps(claudeReply));
});

afterEach(async () => {
  for (const t of open.splice(0)) await t.kill();
});

/** Claude shows "esc to interrupt" (and a running-hook line) until the turn, hooks included, is over. */
const idle = (s: string) => !/esc to interrupt|running \w+ hook/i.test(s);
/** A turn is over once Claude has looked idle for this long (a Stop block starts another request). */
const TURN = { stableMs: 2000 };
/** The transcript after the newest echo of `prompt`: what that turn showed. */
const fromEcho = (screen: string, prompt: string) => screen.slice(screen.lastIndexOf(prompt));

afterAll(async () => {
  await fake?.close();
  console.log(`tui: Claude Code tier wall time ${Date.now() - tierStart} ms`);
});

function startClaude(test: string, p: Project): Tui {
  const home = join(p.base, "home");
  mkdirSync(home, { recursive: true });
  seedClaudeHome(home, p.repo);
  const env = {
    ...terminalEnv(p, home),
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEY: "fake",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    IS_SANDBOX: "1",
  };
  const t = Tui.start({
    test,
    cmd: bins.claude,
    args: ["--permission-mode", "acceptEdits"],
    cwd: p.repo,
    env,
  });
  open.push(t);
  return t;
}

describe("Tandem inside the real Claude Code terminal UI", () => {
  it("starts and answers a plain prompt without Tandem noise, refuses a held file with Tandem's reason, and asks for the ritual as guidance", async () => {
    const p = initProject("claude-code", { onPath: true });
    peerHolds(p, "f.txt");
    const ui = startClaude("claude-session", p);
    await ui.waitFor("started", /❯/);
    await ui.say("hello");
    await ui.waitFor("plain-reply", (s) => s.includes(REPLY) && idle(s), TURN);
    ui.expectScreen("quiet", (s) =>
      /Tandem|hook/.test(s) ? "Tandem or a hook spoke during a turn without tools" : null,
    );

    const writeF = `WRITE ${join(p.repo, "f.txt")}`;
    await ui.say(writeF);
    const refused = fromEcho(
      await ui.waitFor("refused", (s) => fromEcho(s, writeF).includes(DONE) && idle(s), TURN),
      writeF,
    );
    expect(refused).toMatch(/held by agent-/);
    expect(refused).toContain("Tandem refused this edit");
    expect(refused).not.toMatch(COMMAND_PATH);
    expect(p.read("f.txt")).toBe("peer\n");

    const writeG = `WRITE ${join(p.repo, "g.txt")}`;
    await ui.say(writeG);
    await ui.waitFor("ritual", (s) => /Stop hook/.test(fromEcho(s, writeG)) && idle(s), TURN);
    ui.expectScreen("ritual-text", (s) => {
      const turn = fromEcho(s, writeG);
      if (!turn.includes("tandem status")) return "the ritual block does not name `tandem status`";
      return COMMAND_PATH.test(turn) ? "the ritual block shows Tandem's internal command line" : null;
    });
    expect(p.read("g.txt")).toBe("hello\n");
  });

  it("ends the Tandem session when the person types /exit or closes the terminal; a file left uncommitted is left work", async () => {
    const p = initProject("claude-code", { onPath: true });
    // The terminal first: the left-work checks leave a second (stand-in) Claude session live.
    for (const how of ["terminal", "exit"] as const) {
      const ui = startClaude(`claude-${how}`, p);
      await ui.waitFor("started", /❯/);
      // The /exit session writes a file and ends without committing it (issue 26).
      const order = how === "exit" ? `WRITE ${join(p.repo, "f.txt")}` : "hello";
      await ui.say(order);
      await ui.waitFor(
        "replied",
        (s) => fromEcho(s, order).includes(how === "exit" ? DONE : REPLY) && idle(s),
        TURN,
      );
      const before = (await sessions(p)).filter((s) => s.client === "claude-code" && s.live);
      expect(before).toHaveLength(1);
      if (how === "exit") {
        expect(p.read("f.txt")).toBe("hello\n");
        declareTask(p, before[0]!.name);
      }
      const closing = how === "exit" ? ui.say("/exit") : ui.kill();
      await closing;
      // Asserted as behaviour (it ends without waiting out freshness); how soon is the bench's to measure.
      await until(`the ${how} session is no longer live`, async () =>
        (await sessions(p)).some((s) => s.nativeId === before[0]!.nativeId && !s.live),
      );
      if (how === "terminal") continue;
      expect((await sessions(p)).find((x) => x.nativeId === before[0]!.nativeId)?.ended).toBe(true);
      expectLeftWork(p, "f.txt", "hello\n", {
        name: before[0]!.name,
        client: "claude-code",
        task: LEFT_TASK,
      });
    }
  });
});
