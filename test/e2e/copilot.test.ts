import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInAgentAsync } from "../helpers/agent-shell.js";
import { TANDEM_BIN, THIN_BIN, tandem } from "../helpers/cli.js";
import { patient } from "../helpers/patience.js";
import { g } from "../helpers/repo.js";
import { peerHolds } from "../tui/world.js";
import { type ChatRequest, type CopilotFake, startCopilotFake } from "./harness/copilot-fake.js";
import { ensureCopilot } from "./harness/install-clients.js";
import { copilotEnv, runCopilot } from "./harness/run-copilot.js";
import { killGroup } from "./harness/spawn.js";
import { claims, initProject, ledgerEvents, newSessionId, type Project } from "./support.js";

let bin: string;
let fake: CopilotFake;
const tierStart = Date.now();

beforeAll(async () => {
  bin = await ensureCopilot();
  fake = await startCopilotFake();
});

afterAll(async () => {
  await fake?.close();
  console.log(`e2e: copilot tier wall time ${Date.now() - tierStart} ms`);
});

function copilot(p: Project, prompt: string, opts: { model?: string; sessionId?: string } = {}) {
  return runCopilot({
    bin,
    cwd: p.repo,
    prompt,
    baseUrl: fake.url,
    home: join(p.base, "copilot-home"),
    env: p.env,
    ...opts,
  });
}

const sessions = (p: Project) =>
  JSON.parse(tandem(["sessions", "--all", "--json"], { cwd: p.repo }).stdout) as {
    name: string;
    client: string;
    kind: string;
    nativeId?: string;
    native_id?: string;
  }[];

const said = (text: string) => (r: ChatRequest) => r.text.includes(text);
const RITUAL = 'tandem task "copilot e2e" && tandem status';

describe("real Copilot CLI beside a live Claude Code peer", () => {
  it("refuses create of a held file with Tandem's reason; its shell finds its session; a -p run ends its own session", async () => {
    const p = initProject("claude-code,copilot-cli");
    peerHolds(p, "held.txt");
    const seen: string[] = [];
    fake.script(
      [
        { call: "bash", args: { command: RITUAL, description: "ritual" } },
        (r) => {
          seen.push(r.lastToolResult);
          return { call: "create", args: { path: join(p.repo, "held.txt"), file_text: "copilot\n" } };
        },
        (r) => {
          seen.push(r.lastToolResult);
          return { call: "create", args: { path: join(p.repo, "free.txt"), file_text: "free\n" } };
        },
        { text: "done" },
      ],
      said("scenario one"),
    );
    const run = await copilot(p, "scenario one");
    expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
    expect(p.read("held.txt")).toBe("peer\n");
    expect(p.read("free.txt")).toBe("free\n");
    expect(seen[1]).toMatch(/^Denied by preToolUse hook: Tandem refused this edit.*held\.txt: held by/s);
    const events = ledgerEvents(p.repo);
    const mine = events.filter((e) => e.client === "copilot-cli");
    // `tandem task` / `status` from Copilot's bash tool found the session by process ancestry.
    expect(seen[0]).toMatch(/task set — copilot e2e/);
    expect(mine.map((e) => e.kind)).toEqual(expect.arrayContaining(["task.set", "status.checked"]));
    const started = mine.find((e) => e.kind === "session.started")!.data;
    expect(started.uiPid).toBe(started.agentPid);
    // Copilot also runs Claude Code's hook file; those payloads are left to its own hooks.
    expect(events.filter((e) => e.client === "claude-code" && e.kind === "session.started")).toHaveLength(1);
    // The run's own sessionEnd (reason complete) ends it and releases free.txt; the peer keeps held.txt.
    expect(mine.at(-1)).toMatchObject({ kind: "session.ended", data: { reason: "complete" } });
    expect(claims(p).map((c) => c.path)).toEqual(["held.txt"]);
    expect(fake.errors).toEqual([]);
  });

  it("refuses a gpt-5 apply_patch over a held file and two free files whole, then enforces the ritual", async () => {
    const p = initProject("claude-code,copilot-cli");
    peerHolds(p, "held.txt");
    const patch = ["a.txt", "held.txt", "b.txt"].map((f) => `*** Add File: ${join(p.repo, f)}\n+patched`);
    let denial = "";
    fake.script(
      [
        { patch: `*** Begin Patch\n${patch.join("\n")}\n*** End Patch\n` },
        (r) => {
          denial = r.lastToolResult;
          return { call: "bash", args: { command: "echo work > work.txt", description: "work" } };
        },
        (r) =>
          r.text.includes("[tandem:stop-remediation")
            ? { call: "bash", args: { command: RITUAL, description: "ritual" } }
            : { text: "done without the ritual" },
        { text: "done with the ritual" },
      ],
      said("scenario two"),
    );
    const run = await copilot(p, "scenario two", { model: "gpt-5.4" });
    expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
    expect(fake.requests.filter(said("scenario two")).some((r) => r.tools.includes("apply_patch"))).toBe(
      true,
    );
    expect(denial).toMatch(/^Denied by preToolUse hook: .*held\.txt: held by/s);
    expect([p.read("a.txt"), p.read("b.txt"), p.read("held.txt")]).toEqual([null, null, "peer\n"]);
    const mine = ledgerEvents(p.repo).filter((e) => e.client === "copilot-cli");
    const stops = mine.filter((e) => e.kind === "turn.stopped").map((e) => e.data.verdict);
    // Blocked once (a tool ran, no ritual), the reason came back as a marked prompt, then passed.
    expect(stops).toEqual(["block", "pass"]);
    const prompts = mine.filter((e) => e.kind === "prompt.submitted").map((e) => e.data.remediation);
    expect(prompts).toEqual([false, true]);
    // One sessionEnd after the continuation, not one per turn.
    expect(mine.filter((e) => e.kind === "session.ended")).toHaveLength(1);
  });

  it("a -p run resuming a session whose interactive process lives does not end it or release its claims", async () => {
    const p = initProject("claude-code,copilot-cli");
    const id = newSessionId();
    // The interactive Copilot: a process named copilot sending its hooks, then staying open.
    const ui = join(p.base, "ui");
    mkdirSync(ui);
    const payload = (extra: Record<string, unknown>) =>
      JSON.stringify({ sessionId: id, timestamp: Date.now(), cwd: p.repo, ...extra });
    writeFileSync(join(ui, "1-session-start.json"), payload({ source: "new" }));
    writeFileSync(
      join(ui, "2-pre-tool-use.json"),
      payload({ toolName: "create", toolArgs: { path: join(p.repo, "mine.txt"), file_text: "x\n" } }),
    );
    const script = join(ui, "copilot");
    writeFileSync(
      script,
      `#!/bin/sh\nfor f in "${ui}"/*.json; do e=\${f##*/[0-9]-}; "${THIN_BIN}" hook copilot-cli "\${e%.json}" < "$f" > "$f.out"; done\ntouch "${ui}/ready"\nsleep 600\n`,
    );
    chmodSync(script, 0o755);
    const child = spawn(script, [], {
      cwd: p.repo,
      env: { ...process.env, ...p.env },
      detached: true,
      stdio: "ignore",
    });
    try {
      const deadline = Date.now() + patient(30_000);
      while (!existsSync(join(ui, "ready")) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      expect(claims(p).map((c) => c.path)).toEqual(["mine.txt"]);
      fake.script([{ text: "nothing to do" }], said("scenario three"));
      const run = await copilot(p, "scenario three", { sessionId: id });
      expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
      const mine = ledgerEvents(p.repo).filter((e) => e.client === "copilot-cli");
      expect(mine.some((e) => e.kind === "prompt.submitted" && e.data.text === "scenario three")).toBe(true);
      expect(mine.map((e) => e.kind)).not.toContain("session.ended");
      expect(mine.at(-1)).toMatchObject({ kind: "activity.set", data: { activity: "idle" } });
      expect(claims(p).map((c) => c.path)).toEqual(["mine.txt"]);
    } finally {
      killGroup(child.pid);
    }
  });

  it("captures a Copilot sub-agent's commit and uncommitted file and applies them", async () => {
    const p = initProject("claude-code,copilot-cli");
    symlinkSync(bin, join(p.path.split(":")[0]!, "copilot"));
    const peer = peerHolds(p, "notes.txt");
    let dir = "";
    fake.script(
      [
        { call: "bash", args: { command: "pwd", description: "where" } },
        (r) => {
          dir = r.lastToolResult.split("\n")[0]!.trim();
          return {
            call: "create",
            args: { path: join(dir, "feature.ts"), file_text: "export const feature = true;\n" },
          };
        },
        {
          call: "bash",
          args: { command: "git add feature.ts && git commit -qm 'Add feature'", description: "commit" },
        },
        () => ({
          call: "create",
          args: { path: join(dir, "draft.md"), file_text: "draft, not committed\n" },
        }),
        { text: "Committed the feature; the draft is uncommitted." },
      ],
      said("build the feature"),
    );
    const env = copilotEnv({
      home: join(p.base, "copilot-home"),
      baseUrl: fake.url,
      env: { ...p.env, TANDEM_SESSION: "PEER" },
    });
    const args = [
      "sub",
      "run",
      "--client",
      "copilot-cli",
      "--name",
      "builder",
      "--timeout",
      "90",
      "--json",
      "--",
      "build the feature",
    ];
    // The peer's own shell runs it: its agent is the sub-agent's parent (decision 0045).
    const run = await runInAgentAsync(peer, process.execPath, [TANDEM_BIN, ...args], { cwd: p.repo, env });
    const report = JSON.parse(run.stdout);
    const log = join(p.repo, ".git", "tandem", "subagents", `${report.id}.log`);
    expect(run.code, `${run.stderr}\n${existsSync(log) ? readFileSync(log, "utf8") : ""}`).toBe(0);
    expect(report).toMatchObject({
      childExitCode: 0,
      capture: { commitCount: 1, hadUncommittedChanges: true },
    });
    const apply = tandem(["sub", "apply", "builder"], { cwd: p.repo, env, inside: peer });
    expect(apply.code, apply.stderr).toBe(0);
    expect(g(p.repo, "log", "--format=%s", "-1").trim()).toBe("Add feature");
    expect(p.read("draft.md")).toBe("draft, not committed\n");
    expect(sessions(p).some((s) => s.kind === "subagent" && s.client === "copilot-cli")).toBe(true);
  });
});
