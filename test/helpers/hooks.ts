import { spawn } from "node:child_process";
import { join } from "node:path";
import { openDb } from "../../src/store/db.js";
import { listEvents } from "../../src/store/events/list.js";
import { raw } from "../../src/store/handle.js";
import { type RunResult, tandem } from "./cli.js";
import { afterEachFile } from "./per-file.js";

export type Payload = Record<string, unknown>;

/** Runs `tandem hook <client> <event>` with a JSON payload on stdin, as the client would. */
export function hook(
  client: string,
  event: string,
  payload: Payload | string,
  opts: { cwd: string; env?: Record<string, string | undefined> },
): RunResult {
  const input = typeof payload === "string" ? payload : JSON.stringify(payload);
  return tandem(["hook", client, event], {
    cwd: opts.cwd,
    env: { CLAUDE_PROJECT_DIR: undefined, ...opts.env },
    input,
  });
}

export const claudeWrite = (repo: string, session: string, file: string, content = "x\n"): Payload => ({
  session_id: session,
  transcript_path: `/tmp/${session}.jsonl`,
  cwd: repo,
  hook_event_name: "PreToolUse",
  tool_name: "Write",
  tool_input: { file_path: join(repo, file), content },
  tool_use_id: `toolu_${Math.random().toString(36).slice(2)}`,
});

export const claudeBash = (
  repo: string,
  session: string,
  command: string,
  event = "PreToolUse",
): Payload => ({
  session_id: session,
  cwd: repo,
  hook_event_name: event,
  tool_name: "Bash",
  tool_input: { command },
  tool_use_id: "toolu_bash",
});

export const codexPatch = (repo: string, session: string, patch: string): Payload => ({
  session_id: session,
  turn_id: "turn-1",
  transcript_path: null,
  cwd: repo,
  hook_event_name: "PreToolUse",
  model: "gpt-5.5",
  permission_mode: "bypassPermissions",
  tool_name: "apply_patch",
  tool_input: { command: patch },
  tool_use_id: "call_1",
});

export const codexShell = (repo: string, session: string, command: string): Payload => ({
  ...codexPatch(repo, session, ""),
  tool_name: "Bash",
  tool_input: { command },
});

/** The decision a PreToolUse answer carries, for Claude and Codex alike. */
export function denied(r: RunResult): string | null {
  if (!r.stdout.trim()) return null;
  const out = JSON.parse(r.stdout) as {
    hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string };
  };
  return out.hookSpecificOutput?.permissionDecision === "deny"
    ? (out.hookSpecificOutput.permissionDecisionReason ?? "")
    : null;
}

/** The reason of a Stop answer's `{"decision":"block"}`, or null when the answer lets the turn end. */
export function blockReason(r: RunResult): string | null {
  if (!r.stdout.trim()) return null;
  const out = JSON.parse(r.stdout) as { decision?: string; reason?: string };
  return out.decision === "block" ? (out.reason ?? "") : null;
}

export function ledger(repo: string) {
  const db = openDb(join(repo, ".git", "tandem"));
  try {
    return {
      events: listEvents(db),
      claims: raw(db)
        .prepare(
          "SELECT c.path, s.native_id AS holder FROM claims c JOIN sessions s ON s.id = c.session_id ORDER BY c.path",
        )
        .all() as { path: string; holder: string }[],
    };
  } finally {
    db.close();
  }
}

const sleepers: ReturnType<typeof spawn>[] = [];

/**
 * A stand-in agent process: hooks record it as the session's agent (Claude
 * exports CLAUDE_PID), so liveness and process attribution see a real, separate
 * process instead of the test runner every session shares.
 */
export function fakeAgent(): { CLAUDE_PID: string } {
  const child = spawn("sleep", ["600"], { stdio: "ignore" });
  sleepers.push(child);
  return { CLAUDE_PID: String(child.pid) };
}

afterEachFile(() => {
  for (const s of sleepers.splice(0)) s.kill();
});
