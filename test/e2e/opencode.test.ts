import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_NAMES } from "../../src/clients/index.js";
import { agentShell, runInAgentAsync } from "../helpers/agent-shell.js";
import { TANDEM_BIN, tandem } from "../helpers/cli.js";
import { claudeWrite, denied, fakeAgent, hook } from "../helpers/hooks.js";
import { g, writeFiles } from "../helpers/repo.js";
import { type ChatRequest, type CopilotFake, startCopilotFake } from "./harness/copilot-fake.js";
import { gate } from "./harness/gate.js";
import { ensureOpencode } from "./harness/install-clients.js";
import { opencodeEnv, runOpencode } from "./harness/run-opencode.js";
import { claims, initProject, ledgerEvents, type Project, until } from "./support.js";

/**
 * The real opencode 1.18.33 (`opencode run`), offline against the Chat Completions fake (opencode
 * speaks it through its OpenAI-compatible provider), in a repository wired for every client.
 */
let bin: string;
let fake: CopilotFake;
const tierStart = Date.now();

beforeAll(async () => {
  bin = await ensureOpencode();
  fake = await startCopilotFake();
});

afterAll(async () => {
  await fake?.close();
  console.log(`e2e: opencode tier wall time ${Date.now() - tierStart} ms`);
});

const sessions = (p: Project) =>
  JSON.parse(tandem(["sessions", "--all", "--json"], { cwd: p.repo }).stdout) as {
    id: string;
    name: string;
    client: string;
    kind: string;
  }[];

const HELD = /peer\.txt: held by agent-\w+ \(claude-code/;
const isMain = (r: ChatRequest) => r.text.includes("holder-run");
const isSub = (r: ChatRequest) => r.text.includes("SUBTASK");

describe("real opencode beside a Claude Code session", () => {
  it("holds its file through an open turn, is refused the peer's file by tool, redirect and sub-agent, and sends the ritual as a follow-up", async () => {
    const p = initProject(CLIENT_NAMES.join(","));
    const home = join(p.base, "opencode-home");
    // The peer: a live Claude Code session holding peer.txt, through the hook entry.
    const peer = { cwd: p.repo, env: fakeAgent() };
    expect(
      denied(hook("claude-code", "pre-tool-use", claudeWrite(p.repo, "claude-peer", "peer.txt"), peer)),
    ).toBeNull();
    writeFileSync(join(p.repo, "peer.txt"), "the peer's draft\n");
    const held = gate();
    fake.script(
      [
        { call: "write", args: { filePath: "sub.txt", content: "from the sub-agent\n" } },
        { call: "write", args: { filePath: "peer.txt", content: "sub-agent clobber\n" } },
        { text: "Sub-agent done." },
      ],
      isSub,
    );
    fake.script(
      [
        { call: "write", args: { filePath: "oc.txt", content: "from opencode\n" } },
        async () => {
          // The turn stays open (the model has not answered) until the test has looked.
          await held.opened;
          return { call: "write", args: { filePath: "peer.txt", content: "mine now\n" } };
        },
        { call: "bash", args: { command: "echo clobber > peer.txt", description: "redirect" } },
        {
          call: "task",
          args: { description: "sub work", prompt: "SUBTASK write sub.txt", subagent_type: "general" },
        },
        { text: "Done." },
      ],
      isMain,
    );
    const run = runOpencode({
      bin,
      cwd: p.repo,
      prompt: "holder-run: write oc.txt",
      baseUrl: fake.url,
      home,
      env: p.env,
      fake,
    });

    await until(() => fake.requests.some((r) => isMain(r) && r.toolResults === 1), 200_000);
    const oc = sessions(p).find((s) => s.client === "opencode")!;
    expect(claims(p)).toContainEqual(expect.objectContaining({ path: "oc.txt", holder: oc.name }));
    const refused = denied(
      hook("claude-code", "pre-tool-use", claudeWrite(p.repo, "claude-peer", "oc.txt"), peer),
    );
    expect(refused).toMatch(new RegExp(`oc\\.txt: held by ${oc.name} \\(opencode`));
    held.open();

    const res = await run;
    expect(res.exitCode, res.stderr.slice(-2000)).toBe(0);
    const main = (n: number) => fake.requests.find((r) => isMain(r) && r.toolResults === n)!;
    // The write tool and the shell redirect were refused before they ran; the model read why.
    expect(main(2).lastToolResult).toMatch(HELD);
    expect(main(3).lastToolResult).toMatch(HELD);
    // The sub-agent (task tool, a child session) is gated too, and its write is the parent's claim.
    expect(fake.requests.find((r) => isSub(r) && r.toolResults === 2)?.lastToolResult).toMatch(HELD);
    expect(p.read("peer.txt")).toBe("the peer's draft\n");
    expect(p.read("sub.txt")).toBe("from the sub-agent\n");
    expect(sessions(p).filter((s) => s.client === "opencode")).toHaveLength(1);
    expect(claims(p)).not.toContainEqual(expect.objectContaining({ path: "sub.txt", holder: "claude-peer" }));

    // The ritual: the idle session was told to repair its turn (the plugin sends it as a prompt).
    const mine = ledgerEvents(p.repo).filter((e) => e.name === oc.name);
    const stops = mine
      .filter((e) => e.kind === "turn.stopped")
      .map((e) => [e.data.verdict, e.data.enforcement]);
    expect(stops[0]).toEqual(["block", "enforced"]);
    expect(fake.errors).toEqual([]);
  });
});

describe("a real opencode sub-agent", () => {
  it("commits one file and leaves another uncommitted; both come back to the parent", async () => {
    const p = initProject("claude-code,opencode");
    const home = join(p.base, "opencode-home");
    const parent = agentShell();
    hook("claude-code", "pre-tool-use", claudeWrite(p.repo, "parent-session", "notes.txt"), {
      cwd: p.repo,
      env: parent,
    });
    writeFiles(p.repo, {
      ".tandem/config.jsonc": JSON.stringify({
        subagents: { clients: { opencode: { command: bin, args: ["run", "--auto"] } } },
      }),
    });
    g(p.repo, "add", ".tandem/config.jsonc");
    g(p.repo, "commit", "-qm", "sub-agent launch line");
    fake.script(
      [
        {
          call: "bash",
          args: {
            command:
              "echo 'export const feature = true;' > feature.ts && git add feature.ts && git commit -qm 'Add feature'",
            description: "commit",
          },
        },
        { call: "write", args: { filePath: "draft.md", content: "draft, not committed\n" } },
        { text: "Committed the feature; the draft is uncommitted." },
      ],
      (r) => r.text.includes("build the feature"),
    );
    const env = opencodeEnv(home, fake.url, { ...p.env, TANDEM_SESSION: "parent-session" });
    const args = ["sub", "run", "--client", "opencode", "--name", "builder", "--timeout", "200", "--json"];
    // The parent's own shell runs it: its agent is the sub-agent's parent (decision 0045).
    const run = await runInAgentAsync(
      parent,
      process.execPath,
      [TANDEM_BIN, ...args, "--", "build the feature"],
      { cwd: p.repo, env },
    );
    const report = JSON.parse(run.stdout || "{}");
    const log = join(p.repo, ".git", "tandem", "subagents", `${report.id}.log`);
    const why = `${run.stderr}\n${existsSync(log) ? readFileSync(log, "utf8").slice(-3000) : "(no log)"}`;
    expect(run.code, why).toBe(0);
    expect(report).toMatchObject({
      name: "builder",
      childExitCode: 0,
      capture: { commitCount: 1, hadUncommittedChanges: true, uncaptured: [] },
    });
    const apply = tandem(["sub", "apply", "builder"], { cwd: p.repo, env, inside: parent });
    expect(apply.code, apply.stderr).toBe(0);
    expect(g(p.repo, "log", "--format=%s", "-1").trim()).toBe("Add feature");
    expect(p.read("feature.ts")).toBe("export const feature = true;\n");
    expect(p.read("draft.md")).toBe("draft, not committed\n");
    // The child's plugin ran in its worktree and registered it as the parent's sub-agent.
    expect(sessions(p).some((s) => s.kind === "subagent" && s.client === "opencode")).toBe(true);
    expect(fake.errors).toEqual([]);
  });
});
