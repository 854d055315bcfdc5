import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tandem } from "../helpers/cli.js";
import { claudeWrite, denied, hook } from "../helpers/hooks.js";
import { type CopilotFake, type CopilotReply, startCopilotFake } from "./harness/copilot-fake.js";
import { gate } from "./harness/gate.js";
import { ensureCline } from "./harness/install-clients.js";
import { runCline } from "./harness/run-cline.js";
import { claims, initProject, ledgerEvents, until } from "./support.js";

let bin: string;
let fake: CopilotFake;
const tierStart = Date.now();

beforeAll(async () => {
  bin = await ensureCline();
  // Cline speaks OpenAI Chat Completions to an `openai-compatible` provider: Copilot's fake fits.
  fake = await startCopilotFake();
});

afterAll(async () => {
  await fake?.close();
  console.log(`e2e: Cline tier wall time ${Date.now() - tierStart} ms`);
});

const sessions = (repo: string) =>
  JSON.parse(tandem(["sessions", "--all", "--json"], { cwd: repo }).stdout) as {
    id: string;
    name: string;
    client: string;
    task: string | null;
  }[];

const shell = (command: string): CopilotReply => ({ call: "run_commands", args: { commands: [command] } });
describe("real Cline CLI beside a Claude Code session", () => {
  it("holds its file through an open turn, is refused the peer's file by editor and by shell, and its turn end is observed", async () => {
    const p = initProject("claude-code,cline");
    const home = join(p.base, "cline-home");
    const mine = join(p.repo, "c.txt");
    // The peer: a Claude Code session holding peer.txt (its recorded payload shape, through the hook entry).
    expect(
      denied(
        hook("claude-code", "pre-tool-use", claudeWrite(p.repo, "claude-peer", "peer.txt"), { cwd: p.repo }),
      ),
    ).toBeNull();
    writeFileSync(join(p.repo, "peer.txt"), "the peer's draft\n");
    const open = gate();
    let holding = false;

    fake.script(
      [
        { call: "editor", args: { path: mine, new_text: "from cline\n" } },
        shell("echo overwritten > peer.txt"),
        { call: "editor", args: { path: join(p.repo, "peer.txt"), old_text: "draft", new_text: "mine" } },
        // Holds the turn open until the test has looked, then runs the ritual in Cline's shell.
        async () => {
          holding = true;
          await open.opened;
          return shell('tandem task "writing c.txt" && tandem status');
        },
        { text: "Wrote c.txt." },
      ],
      (r) => r.text.includes("holder-run"),
    );
    const run = runCline({
      bin,
      cwd: p.repo,
      prompt: "holder-run: write c.txt",
      baseUrl: fake.url,
      home,
      env: p.env,
    });

    await until(() => holding, 120_000);
    const asked = fake.requests.filter((r) => r.text.includes("holder-run"));
    // The shell redirect and the editor edit of peer.txt were refused before they ran.
    expect(p.read("peer.txt")).toBe("the peer's draft\n");
    // Cline drops TaskStart's answer: the first tool result brought the name, peers and ritual.
    const afterFirst = asked.find((r) => r.toolResults === 1)!;
    const brief = /<hook_context source="PostToolUse"[^>]*>\n([\s\S]*?)\n<\/hook_context>/.exec(
      afterFirst.text,
    )?.[1];
    expect(brief).toMatch(/^Tandem: you are agent-\w+\./);
    expect(brief).toMatch(/tandem task "<what you are working on>"/);
    expect(brief).toMatch(/Live peers right now:\n- agent-\w+ \(claude-code, [^)]*holds peer\.txt/);
    // Tandem's plugin skipped both calls: their input untouched, Tandem's reason each one's result.
    const afterShell = asked.find((r) => r.toolResults === 2)!;
    expect(afterShell.lastToolResult).toMatch(/peer\.txt: held by agent-\w+ \(claude-code/);
    // Skipped, the call brings no hook context beside it: the model reads the reason once.
    expect(afterShell.text).not.toMatch(/<hook_context source="PreToolUse"/);
    const afterEdit = asked.find((r) => r.toolResults === 3)!;
    expect(afterEdit.lastToolResult).toMatch(/Tandem refused this edit[\s\S]*peer\.txt: held by agent-\w+/);
    expect(afterEdit.lastToolResult).not.toMatch(/Invalid input/);
    // While its turn is open, Cline holds c.txt: the peer's write is refused.
    expect(p.read("c.txt")).toBe("from cline\n");
    const cline = sessions(p.repo).find((s) => s.client === "cline")!;
    expect(claims(p)).toContainEqual(expect.objectContaining({ path: "c.txt", holder: cline.name }));
    const peer = denied(
      hook("claude-code", "pre-tool-use", claudeWrite(p.repo, "claude-peer", "c.txt"), { cwd: p.repo }),
    );
    expect(peer).toMatch(new RegExp(`c\\.txt: held by ${cline.name} \\(cline`));

    open.open();
    const res = await run;
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/Wrote c\.txt\./);
    // What the person reads: the edit's own arguments (Cline cuts a long path short), then on the
    // next line Tandem's reason as its error.
    expect(res.stdout).toMatch(
      /\[editor\][^\n]*\n[^\n]*error:[^\n]*peer\.txt is held[^\n]*Tandem refused this edit/,
    );
    expect(res.stdout).not.toMatch(/Invalid input/);
    // `tandem task` in Cline's shell found its session by ancestry (no session variable there).
    expect(sessions(p.repo).find((s) => s.id === cline.id)?.task).toBe("writing c.txt");
    // Observed: TaskComplete (detached) is recorded as the turn's end, never blocking it.
    await until(() => ledgerEvents(p.repo).some((e) => e.name === cline.name && e.kind === "turn.stopped"));
    const stops = ledgerEvents(p.repo).filter((e) => e.name === cline.name && e.kind === "turn.stopped");
    // The ritual ran in the turn, so the one recorded end passes (a sub-agent's would be skipped).
    expect(stops.map((e) => e.data.verdict)).toEqual(["pass"]);
    expect(fake.errors).toEqual([]);
  });
});
