import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tandem } from "../helpers/cli.js";
import { blockReason, claudeWrite, ledger } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { initRepo, tempDir } from "../helpers/repo.js";

const cursorBase = (repo: string) => ({
  conversation_id: "conv-1",
  generation_id: "gen-1",
  workspace_roots: [repo],
  cursor_version: "2.0.0",
  model: "auto",
});

async function cursorTurn(repo: string, prompt: string) {
  return await hook(
    "cursor",
    "before-submit-prompt",
    { ...cursorBase(repo), hook_event_name: "beforeSubmitPrompt", prompt, attachments: [] },
    { cwd: repo },
  );
}

async function cursorStop(repo: string, loop: number) {
  const r = await hook(
    "cursor",
    "stop",
    { ...cursorBase(repo), hook_event_name: "stop", status: "completed", loop_count: loop },
    { cwd: repo },
  );
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as { followup_message?: string };
}

function stops(repo: string) {
  return ledger(repo)
    .events.filter((e) => e.kind === "turn.stopped")
    .map((e) => e.data as { verdict: string; rule: string | null; enforcement: string });
}

describe("the end-of-turn ritual on Cursor", () => {
  it("a stop → followup → stop chain ends once the followups supplied both halves", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    await cursorTurn(repo, "please edit a.ts");
    const write = await hook(
      "cursor",
      "pre-tool-use",
      {
        ...cursorBase(repo),
        hook_event_name: "preToolUse",
        tool_name: "Write",
        tool_input: { file_path: join(repo, "a.ts") },
        tool_use_id: "t1",
        cwd: repo,
      },
      { cwd: repo },
    );
    expect(JSON.parse(write.stdout)).toEqual({ permission: "allow" });

    const first = await cursorStop(repo, 0);
    expect(first.followup_message).toMatch(/^\[tandem:stop-remediation rule=status\]\n/);
    expect(first.followup_message).toContain("tandem status");
    expect(first.followup_message).toContain('tandem task "');

    await cursorTurn(repo, first.followup_message!);
    expect(tandem(["status", "--session", "conv-1"], { cwd: repo }).code).toBe(0);
    const second = await cursorStop(repo, 1);
    expect(second.followup_message).toMatch(/^\[tandem:stop-remediation rule=task\]/);

    await cursorTurn(repo, second.followup_message!);
    expect(tandem(["task", "editing a.ts", "--session", "conv-1"], { cwd: repo }).code).toBe(0);
    expect(await cursorStop(repo, 2)).toEqual({});
    expect(stops(repo).map((s) => [s.verdict, s.rule])).toEqual([
      ["block", "status"],
      ["block", "task"],
      ["pass", null],
    ]);
  });

  it("a new human prompt with no ritual blocks again", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    await cursorTurn(repo, "one");
    await hook(
      "cursor",
      "before-shell-execution",
      { ...cursorBase(repo), hook_event_name: "beforeShellExecution", command: "touch x", cwd: repo },
      { cwd: repo },
    );
    tandem(["status", "--session", "conv-1"], { cwd: repo });
    tandem(["task", "", "--session", "conv-1"], { cwd: repo });
    expect(await cursorStop(repo, 0)).toEqual({});
    await cursorTurn(repo, "two");
    await hook(
      "cursor",
      "before-shell-execution",
      { ...cursorBase(repo), hook_event_name: "beforeShellExecution", command: "touch y", cwd: repo },
      { cwd: repo },
    );
    expect((await cursorStop(repo, 0)).followup_message).toMatch(/rule=status/);
  });
});

describe("the end-of-turn ritual on Claude Code and Codex", () => {
  const claudeStop = async (repo: string, active: boolean, reply = "done") =>
    await hook(
      "claude-code",
      "stop",
      {
        session_id: "A",
        cwd: repo,
        hook_event_name: "Stop",
        stop_hook_active: active,
        last_assistant_message: reply,
      },
      { cwd: repo },
    );

  /** Session A's prompt, as Claude sends it at the start of a turn. */
  const claudePrompt = async (repo: string) =>
    await hook(
      "claude-code",
      "user-prompt-submit",
      { session_id: "A", cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "go" },
      { cwd: repo },
    );

  /** A turn of session A that wrote a.txt, so its Stop owes the ritual. */
  const claudeTurnWithWrite = async (repo: string) => {
    await claudePrompt(repo);
    await hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "a.txt"), { cwd: repo });
  };

  it("Claude: blocks with a JSON decision naming both commands, then stops blocking after the cap", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    await claudeTurnWithWrite(repo);
    const first = await claudeStop(repo, false);
    expect(first.code).toBe(0);
    expect(blockReason(first)).toMatch(/ritual is incomplete.*tandem task.*tandem status/s);
    expect(blockReason(await claudeStop(repo, true))).not.toBeNull();
    expect(await claudeStop(repo, true)).toMatchObject({ code: 0, stdout: "" });
    expect(stops(repo).map((s) => s.enforcement)).toEqual(["enforced", "enforced", "observe_only"]);
  });

  it("Claude: a turn whose only edit Tandem refused ends without demanding the ritual", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    await hook("claude-code", "pre-tool-use", claudeWrite(repo, "B", "a.txt"), { cwd: repo });
    await claudePrompt(repo);
    const refused = await hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "a.txt"), { cwd: repo });
    expect(JSON.parse(refused.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    expect(await claudeStop(repo, false)).toMatchObject({ code: 0, stderr: "" });
  });

  it("Claude: a blocked stop keeps the session working, so the box the agent prints then is not idle", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    await claudeTurnWithWrite(repo);
    expect(blockReason(await claudeStop(repo, false))).not.toBeNull();
    const box = tandem(["status", "--session", "A"], { cwd: repo }).stdout;
    expect(box).toMatch(/^\| session .*, working +\|$/m);
    expect(blockReason(await claudeStop(repo, true))).not.toBeNull();
    expect(blockReason(await claudeStop(repo, true))).toBeNull();
    expect(tandem(["status", "--session", "A"], { cwd: repo }).stdout).toMatch(/^\| session .*, idle +\|$/m);
  });

  it("Claude: passes once status and task ran and the reply shows the box", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    await claudeTurnWithWrite(repo);
    tandem(["task", "writing a.txt", "--session", "A"], { cwd: repo });
    const box = tandem(["status", "--session", "A"], { cwd: repo }).stdout;
    expect(await claudeStop(repo, false, `Done.\n\`\`\`\n${box}\`\`\``)).toMatchObject({
      code: 0,
      stdout: "",
      stderr: "",
    });
    expect(blockReason(await claudeStop(repo, false, "Done, no box"))).not.toBeNull();
  });

  it("Codex: never blocks and stays silent, recording the verdict as observe_only", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    const base = {
      session_id: "X",
      turn_id: "t",
      cwd: repo,
      model: "gpt-5.5",
      permission_mode: "default",
      transcript_path: null,
    };
    await hook(
      "codex",
      "user-prompt-submit",
      { ...base, hook_event_name: "UserPromptSubmit", prompt: "go" },
      { cwd: repo },
    );
    await hook(
      "codex",
      "pre-tool-use",
      {
        ...base,
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: "touch a" },
        tool_use_id: "c1",
      },
      { cwd: repo },
    );
    const r = await hook(
      "codex",
      "stop",
      { ...base, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "done" },
      { cwd: repo },
    );
    expect(r).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(stops(repo)).toEqual([
      expect.objectContaining({ verdict: "block", rule: "status", enforcement: "observe_only" }),
    ]);
  });
});

describe("prompt context", () => {
  const prompt = async (client: string, repo: string, session: string, env: Record<string, string> = {}) => {
    const payload = {
      session_id: session,
      turn_id: "t",
      cwd: repo,
      hook_event_name: "UserPromptSubmit",
      prompt: "hi",
      model: "m",
      permission_mode: "default",
      transcript_path: null,
    };
    const r = await hook(client, "user-prompt-submit", payload, { cwd: repo, env });
    return r.stdout
      ? (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
          .additionalContext
      : "";
  };

  it("names the peers at a first prompt, mentions a change once, then only the reminder", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    await hook("claude-code", "pre-tool-use", claudeWrite(repo, "P", "p.txt"), { cwd: repo });
    const first = await prompt("claude-code", repo, "A");
    expect(first).toMatch(/other agents are working in this checkout.*holds p\.txt/s);
    expect(first).not.toMatch(/since your last prompt/);
    const again = await prompt("claude-code", repo, "A");
    expect(again).not.toMatch(/peers changed|other agents are working/);
    expect(again).toMatch(/Tandem reminder/);
    await hook("claude-code", "pre-tool-use", claudeWrite(repo, "P", "q.txt"), { cwd: repo });
    expect(await prompt("claude-code", repo, "A")).toMatch(
      /peers changed since your last prompt.*holds p\.txt, q\.txt/s,
    );
  });

  it("gives human-facing Codex sessions the status-footer instruction on every prompt, but not sub-agents", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    for (let i = 0; i < 2; i++)
      expect(await prompt("codex", repo, "X")).toMatch(
        /final shell call, `tandem status`; append its output verbatim/,
      );
    await prompt("codex", repo, "X");
    const parent = ledger(repo).events[0]!.session!;
    expect(await prompt("codex", repo, "SUB", { TANDEM_PARENT_SESSION: parent })).toBe("");
  });
});
