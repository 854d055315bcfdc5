import { join } from "node:path";

/** Hook payloads in the shapes the real clients send (see test/fixtures). */
export const claude = {
  start: (repo: string, session: string) => ({
    session_id: session,
    transcript_path: `/tmp/${session}.jsonl`,
    cwd: repo,
    hook_event_name: "SessionStart",
    source: "startup",
  }),
  prompt: (repo: string, session: string, prompt: string) => ({
    session_id: session,
    cwd: repo,
    hook_event_name: "UserPromptSubmit",
    prompt,
  }),
  write: (repo: string, session: string, file: string, content: string) => ({
    session_id: session,
    cwd: repo,
    permission_mode: "acceptEdits",
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_input: { file_path: join(repo, file), content },
    tool_use_id: "toolu_demo_write",
  }),
};

export const codex = {
  patch: (repo: string, session: string, patch: string) => ({
    session_id: session,
    turn_id: "demo-turn",
    transcript_path: null,
    cwd: repo,
    hook_event_name: "PreToolUse",
    model: "gpt-5.5",
    permission_mode: "default",
    tool_name: "apply_patch",
    tool_input: { command: patch },
    tool_use_id: "call_demo_patch",
  }),
};
