import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { boardModel } from "../../src/watch/model.js";
import { agentShell, namedAgentShell } from "../helpers/agent-shell.js";
import { tandem } from "../helpers/cli.js";
import { claudeWrite, denied } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { cli } from "../helpers/in-process-cli.js";
import { patient } from "../helpers/patience.js";
import { initRepo, tempDir } from "../helpers/repo.js";

const PERSON = {
  TANDEM_SESSION: undefined,
  CLAUDE_PID: undefined,
  QWEN_CODE_SESSION_ID: undefined,
  NO_COLOR: "1",
};

/** Headless `qwen --yolo "<prompt>"`: a write through the real hook, then the process exits, with no SessionEnd. */
function qwenWrites(repo: string, file: string) {
  const qwen = namedAgentShell("qwen");
  const payload = {
    session_id: "qwen-headless",
    cwd: repo,
    hook_event_name: "PreToolUse",
    tool_name: "write_file",
    tool_input: { file_path: join(repo, file), content: "qwen\n" },
  };
  const r = tandem(["hook", "qwen-code", "pre-tool-use"], {
    cwd: repo,
    inside: qwen,
    input: JSON.stringify(payload),
    env: { QWEN_CODE_SESSION_ID: "qwen-headless", CLAUDE_PID: undefined },
  });
  expect(r.code, r.stderr).toBe(0);
  writeFileSync(join(repo, file), "qwen\n");
  return qwen;
}

async function until(what: string, cond: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + patient(30_000);
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe("an agent that exits without an end event", () => {
  it("is gone once its process is: its claims stop refusing and its file is listed once, as left work, everywhere", async () => {
    const repo = initRepo(tempDir());
    const qwen = qwenWrites(repo, "f.txt");
    const peer = agentShell();
    const peerWrite = async () =>
      denied(
        await hook("claude-code", "pre-tool-use", claudeWrite(repo, "PEER", "f.txt"), {
          cwd: repo,
          env: peer,
        }),
      );
    expect(await peerWrite()).toMatch(/another live agent session/);

    qwen.stop();
    // Well inside agents.freshnessSeconds (600 s): the process, not the clock, says it left.
    await until("status lists the file as left work", async () =>
      (await cli(["status"], { cwd: repo, env: PERSON })).stdout.includes("f.txt: left by"),
    );
    const status = (await cli(["status"], { cwd: repo, env: PERSON })).stdout;
    expect(status).not.toContain("Stale sessions");
    expect(count(status, "f.txt: left by")).toBe(1);

    const doctor = (await cli(["doctor"], { cwd: repo, env: PERSON })).stdout;
    expect(doctor).not.toMatch(/is stale .* still holds/);
    expect(count(doctor, "f.txt: left by")).toBe(1);

    const watch = (await cli(["watch", "--once"], { cwd: repo, env: PERSON })).stdout;
    expect(watch).toContain("LEFT WORK");
    // The events below the board's sections are history (a claim, a refusal), not a listing.
    const sections = watch.slice(0, watch.indexOf("-- EVENTS"));
    expect(sections).toMatch(/-- CLAIMS none/);
    expect(count(sections, "f.txt")).toBe(1);

    // The board (web UI) reads the terminal board's model.
    const db = openDb(join(repo, ".git", "tandem"));
    try {
      const board = boardModel(db, Date.now(), {
        root: repo,
        repoTop: repo,
        freshnessSeconds: 600,
        events: 0,
      });
      expect(board.claims.filter((c) => c.path === "f.txt")).toEqual([]);
      expect(board.left?.map((l) => l.path)).toEqual(["f.txt"]);
    } finally {
      db.close();
    }

    // Its claim no longer refuses: the peer hears about left work (once), not a live holder.
    const reason = await peerWrite();
    expect(reason ?? "").not.toMatch(/another live agent session/);
  });

  it("under Cline's hub daemon, a UI that appears later is found, and its Ctrl-C ends the session", async () => {
    const repo = initRepo(tempDir());
    // The hub daemon runs the hooks; the person's `cline` starts in the repository afterwards.
    const hub = namedAgentShell("cline", { args: ["--cline-hub-daemon"] });
    const prompt = (text: string) =>
      tandem(["hook", "cline", "user-prompt-submit"], {
        cwd: repo,
        inside: hub,
        input: JSON.stringify({
          taskId: "cline-task",
          workspaceRoots: [repo],
          userPromptSubmit: { prompt: text },
        }),
        env: { CLAUDE_PID: undefined },
      });
    expect(prompt("first").code).toBe(0);
    const ui = namedAgentShell("cline", { cwd: repo });
    expect(prompt("second").code).toBe(0);
    const live = async () => (await cli(["sessions", "--all"], { cwd: repo, env: PERSON })).stdout;
    expect(await live()).toMatch(/cline\s+session\s+live/);
    ui.stop();
    await until("the session is no longer live", async () => /cline\s+session\s+stale/.test(await live()));
    hub.stop();
  });
});
