import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_NAMES } from "../../src/clients/index.js";
import { agentShell, runInAgentAsync } from "../helpers/agent-shell.js";
import { TANDEM_BIN, tandem } from "../helpers/cli.js";
import { claudeWrite, denied, hook } from "../helpers/hooks.js";
import { g } from "../helpers/repo.js";
import {
  type ChatRequest,
  type CopilotFake,
  type CopilotReply,
  startCopilotFake,
} from "./harness/copilot-fake.js";
import { type Gate, gate } from "./harness/gate.js";
import { ensureQwenCode } from "./harness/install-clients.js";
import { linkQwen, qwenEnv, runQwen } from "./harness/run-qwen.js";
import { claims, initProject, ledgerEvents, type Project, until } from "./support.js";

/**
 * The pinned Qwen Code, driven headless against a scripted Chat Completions server (Qwen speaks the
 * same streaming protocol as Copilot's BYOK provider, so the Copilot fake serves it), in a
 * repository wired by `tandem init` for every registered client. Two Qwen runs in all.
 */

let entry: string;
let fake: CopilotFake;
const tierStart = Date.now();

beforeAll(async () => {
  entry = await ensureQwenCode();
  fake = await startCopilotFake();
});

afterAll(async () => {
  await fake?.close();
  console.log(`e2e: qwen-code tier wall time ${Date.now() - tierStart} ms`);
});

/** Turns held open and runs not yet awaited: a failed assert must not leave Qwen waiting. */
const pending: { gates: Gate[]; runs: Promise<unknown>[] } = { gates: [], runs: [] };

afterEach(async () => {
  for (const g of pending.gates.splice(0)) g.open();
  await Promise.allSettled(pending.runs.splice(0));
});

const RITUAL = 'tandem task "qwen e2e" && tandem status';
const shell = (command: string): CopilotReply => ({
  call: "run_shell_command",
  args: { command, description: "step", is_background: false },
});
const writeFile = (file_path: string, content: string): CopilotReply => ({
  call: "write_file",
  args: { file_path, content },
});
const said = (text: string) => (r: ChatRequest) => r.text.includes(text);
/** Qwen sends a blocked Stop's reason as the next user message (docs/clients.md §15.3). */
const repairing = said("Tandem: this turn used tools, but the end-of-turn ritual is incomplete");
/** The closing reply quotes what `tandem status` printed: the status box the ritual asks for. */
const quoteStatus = (r: ChatRequest): CopilotReply => ({ text: `Done.\n${r.lastToolResult}` });

/** A Claude Code session of the project, driven through the hook CLI, with a live agent process. */
function standInPeer(p: Project) {
  const env = agentShell();
  return {
    /** Its agent process: commands run inside it are the peer's own shell commands. */
    agent: env,
    /** Claims and writes `file` as Claude's Write would. */
    holds(file: string): void {
      const r = hook("claude-code", "pre-tool-use", claudeWrite(p.repo, "PEER", file), { cwd: p.repo, env });
      expect(denied(r), r.stderr).toBeNull();
      writeFileSync(join(p.repo, file), "peer\n");
    },
    /** The reason Tandem denies the peer's Write of `file`, or null when it is allowed. */
    deniedWrite(file: string): string | null {
      const r = hook("claude-code", "pre-tool-use", claudeWrite(p.repo, "PEER", file), { cwd: p.repo, env });
      return denied(r);
    },
  };
}

const holderOf = (p: Project, path: string) =>
  ledgerEvents(p.repo).find((e) => e.kind === "claim.acquired" && e.data.path === path)?.name;

/** [verdict, enforcement] of each end of turn `name` recorded, and whether each prompt was a repair. */
function ritualOf(p: Project, name: string) {
  const mine = ledgerEvents(p.repo).filter((e) => e.name === name);
  return {
    stops: mine.filter((e) => e.kind === "turn.stopped").map((e) => [e.data.verdict, e.data.enforcement]),
    repairs: mine.filter((e) => e.kind === "prompt.submitted").map((e) => e.data.remediation),
  };
}

describe("real Qwen Code in a repository wired for every client", () => {
  it("holds its file through an open turn, is refused a peer's file and shell redirect with the reason, and keeps its ritual", async () => {
    const p = initProject(CLIENT_NAMES.join(","));
    const peer = standInPeer(p);
    peer.holds("peer.txt");
    const peerName = holderOf(p, "peer.txt")!;
    expect(peerName).toBeDefined();
    const heldByPeer = new RegExp(`peer\\.txt: held by ${peerName} \\(claude-code`);

    const go = gate();
    pending.gates.push(go);
    const seen = { write: "", redirect: "" };
    fake.script(
      [
        writeFile(join(p.repo, "own.txt"), "from qwen\n"),
        // The reply waits for the gate: Qwen's turn stays open, its claim on own.txt live.
        async () => {
          await go.opened;
          return writeFile(join(p.repo, "peer.txt"), "from qwen\n");
        },
        (r) => {
          seen.write = r.lastToolResult;
          return shell("echo qwen > peer.txt");
        },
        (r) => {
          seen.redirect ||= r.lastToolResult;
          return repairing(r) ? shell(RITUAL) : { text: "Wrote own.txt; peer.txt is held." };
        },
        quoteStatus,
      ],
      said("qwen-run"),
    );
    const run = runQwen({
      entry,
      cwd: p.repo,
      prompt: "qwen-run: write own.txt",
      baseUrl: fake.url,
      home: join(p.base, "qwen-home"),
      env: p.env,
    });
    pending.runs.push(run);

    // 1. Qwen wrote own.txt and waits on the model: the peer is refused it, naming Qwen's session.
    await until(() => fake.requests.some((r) => said("qwen-run")(r) && r.toolResults === 1), 120_000);
    expect(p.read("own.txt")).toBe("from qwen\n");
    const qwenName = holderOf(p, "own.txt")!;
    expect(qwenName).toBeDefined();
    expect(claims(p)).toContainEqual(expect.objectContaining({ path: "own.txt", holder: qwenName }));
    expect(peer.deniedWrite("own.txt")).toMatch(new RegExp(`own\\.txt: held by ${qwenName} \\(qwen-code`));

    // 2. Its write_file of the peer's file and its shell redirect into it are refused; the model
    // reads Tandem's reason as each tool's result.
    go.open();
    const done = await run;
    expect(done.exitCode, done.stderr.slice(-2000)).toBe(0);
    expect(p.read("peer.txt")).toBe("peer\n");
    expect(seen.write).toMatch(heldByPeer);
    expect(seen.redirect).toMatch(heldByPeer);
    const refused = ledgerEvents(p.repo).filter((e) => e.kind === "claim.denied" && e.name === qwenName);
    expect(refused).toHaveLength(2);

    // 3. The ritual: the first Stop is blocked (tools ran, no task or status), the reason comes back
    // as a repair prompt of the same turn, the agent runs it, and the second Stop passes.
    expect(ritualOf(p, qwenName)).toEqual({
      stops: [
        ["block", "enforced"],
        ["pass", "enforced"],
      ],
      repairs: [false, true],
    });
    const mine = ledgerEvents(p.repo).filter((e) => e.name === qwenName);
    expect(mine.map((e) => e.kind)).toEqual(expect.arrayContaining(["task.set", "status.checked"]));
    expect(mine.find((e) => e.kind === "session.started")?.client).toBe("qwen-code");
    expect(fake.errors).toEqual([]);
  });

  it("runs as a sub-agent in its own worktree; its commit and uncommitted file are applied back once", async () => {
    const p = initProject(CLIENT_NAMES.join(","));
    linkQwen(entry, p.path.split(":")[0]!);
    const peer = standInPeer(p);
    peer.holds("notes.txt");
    let dir = "";
    fake.script(
      [
        shell("pwd"),
        (r) => {
          // Qwen's shell result: "Command: pwd\nDirectory: (root)\nOutput: <stdout>\n…".
          dir = r.lastToolResult.match(/^Output: (\/\S+)$/m)?.[1] ?? "";
          return writeFile(join(dir, "feature.ts"), "export const feature = true;\n");
        },
        shell("git add feature.ts && git commit -qm 'Add feature'"),
        () => writeFile(join(dir, "draft.md"), "draft, not committed\n"),
        (r) => (repairing(r) ? shell(RITUAL) : { text: "Committed the feature; the draft is uncommitted." }),
        quoteStatus,
      ],
      said("build the feature"),
    );
    const env = qwenEnv(join(p.base, "qwen-home"), fake.url, { ...p.env, TANDEM_SESSION: "PEER" });
    const args = ["sub", "run", "--client", "qwen-code", "--name", "builder", "--timeout", "150", "--json"];
    // The peer's own shell runs it: its agent process is the sub-agent's parent's (decision 0045).
    const run = await runInAgentAsync(
      peer.agent,
      process.execPath,
      [TANDEM_BIN, ...args, "--", "build the feature"],
      {
        cwd: p.repo,
        env,
      },
    );
    const report = JSON.parse(run.stdout);
    const log = join(p.repo, ".git", "tandem", "subagents", `${report.id}.log`);
    expect(run.code, `${run.stderr}\n${existsSync(log) ? readFileSync(log, "utf8") : ""}`).toBe(0);
    // The child worked in its own worktree, not in the project.
    expect(dir).not.toBe("");
    expect(dir).not.toBe(p.repo);
    expect(report).toMatchObject({
      childExitCode: 0,
      capture: { commitCount: 1, hadUncommittedChanges: true },
    });
    expect(p.read("feature.ts")).toBeNull();

    const apply = tandem(["sub", "apply", "builder"], { cwd: p.repo, env, inside: peer.agent });
    expect(apply.code, apply.stderr).toBe(0);
    expect(g(p.repo, "log", "--format=%s", "-1").trim()).toBe("Add feature");
    expect(p.read("feature.ts")).toBe("export const feature = true;\n");
    expect(p.read("draft.md")).toBe("draft, not committed\n");
    // Exactly once: a second apply finds the capture already in the project and adds nothing.
    const again = tandem(["sub", "apply", "builder"], { cwd: p.repo, env, inside: peer.agent });
    expect(`${again.stdout}${again.stderr}`).toMatch(/already applied/);
    expect(g(p.repo, "log", "--format=%s").match(/^Add feature$/gm)).toHaveLength(1);
    const sessions = JSON.parse(tandem(["sessions", "--all", "--json"], { cwd: p.repo }).stdout) as {
      client: string;
      kind: string;
    }[];
    expect(sessions.some((s) => s.kind === "subagent" && s.client === "qwen-code")).toBe(true);
    expect(fake.errors).toEqual([]);
  });
});
