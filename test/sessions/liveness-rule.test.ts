import { describe, expect, it } from "vitest";
import { CLIENT_NAMES, CLIENTS } from "../../src/clients/index.js";
import { isLive, UI_GONE_GRACE_MS } from "../../src/core/sessions/liveness.js";
import { livenessFacts } from "../../src/sessions/liveness.js";
import { procInfo } from "../../src/sessions/proc.js";
import { uiProcess } from "../../src/sessions/ui.js";
import type { SessionRow } from "../../src/store/sessions/rows.js";
import { namedAgentShell } from "../helpers/agent-shell.js";
import { patient } from "../helpers/patience.js";
import { tempDir } from "../helpers/repo.js";

const FRESH = 600;

function row(
  client: string,
  agent: number,
  agentStart: string | null,
  ui: { pid: number; start: string } | null,
): SessionRow {
  return {
    id: "ses_x",
    client,
    native_id: "n",
    name: "x",
    kind: "session",
    parent_id: null,
    agent_pid: agent,
    agent_pid_start: agentStart,
    ui_pid: ui?.pid ?? null,
    ui_pid_start: ui?.start ?? null,
    cwd: null,
    task: null,
    activity: "idle",
    started_seq: 1,
    last_seen: 1_000_000,
    last_seq: 1,
    ended_seq: null,
  };
}

async function gone(pid: number): Promise<void> {
  const deadline = Date.now() + patient(10_000);
  while (procInfo(pid) !== null) {
    if (Date.now() > deadline) throw new Error(`process ${pid} did not exit`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Every client in the registry has a rule that finds the process the person runs, so a client
 * that exits without an end event (a killed terminal, headless `qwen --yolo`, Cline's Ctrl-C) is
 * judged gone a few seconds after its last hook, not after the freshness window (600 s).
 */
describe.each(CLIENT_NAMES)("liveness rule of %s", (name) => {
  const client = CLIENTS[name];

  it("finds a stand-in of the client as its UI, and judges the session gone once it is killed", async () => {
    const agent = namedAgentShell(client.processName);
    const env = client.ui.kind === "env-pid" ? { [client.ui.variable]: String(agent.pid) } : {};
    const info = procInfo(agent.pid);
    expect(info).not.toBeNull();
    const ui = uiProcess(client, info, env, tempDir());
    expect(ui?.pid).toBe(agent.pid);
    const r = row(name, agent.pid, info!.start, ui);
    expect(isLive(livenessFacts(r), r.last_seen + 60_000, FRESH)).toBe(true);
    agent.stop();
    await gone(agent.pid);
    expect(isLive(livenessFacts(r), r.last_seen + UI_GONE_GRACE_MS + 1, FRESH)).toBe(false);
  });
});

describe("the recorded process", () => {
  it("does not count a reused pid: another start stamp is another process", () => {
    const me = procInfo(process.pid)!;
    const r = row("qwen-code", process.pid, `${me.start}-other`, {
      pid: process.pid,
      start: `${me.start}-other`,
    });
    expect(livenessFacts(r)).toMatchObject({ processAlive: false, uiAlive: false });
    expect(isLive(livenessFacts(r), r.last_seen + UI_GONE_GRACE_MS + 1, FRESH)).toBe(false);
  });

  it("under a shared daemon finds the one UI in the session's directory; the daemon alone says nothing", () => {
    const cwd = tempDir();
    const daemon = namedAgentShell("cline", { args: ["--cline-hub-daemon"] });
    const person = namedAgentShell("cline", { cwd });
    const daemonInfo = procInfo(daemon.pid)!;
    expect(uiProcess(CLIENTS.cline, daemonInfo, {}, cwd)?.pid).toBe(person.pid);
    const unseen = row("cline", daemon.pid, daemonInfo.start, null);
    expect(livenessFacts(unseen).processAlive).toBeNull();
    expect(isLive(livenessFacts(unseen), unseen.last_seen + (FRESH + 1) * 1000, FRESH)).toBe(false);
    daemon.stop();
    person.stop();
  });
});
