import { baseInput, fail, isObj, nestedAnswer, str, toolFrom } from "./payload.js";
import type { ClientSpec, HookKind, Rendered, Verdict, WiredEvent } from "./types.js";

const EVENTS: WiredEvent[] = [
  { native: "SessionStart", cli: "session-start", kind: "session-start" },
  { native: "UserPromptSubmit", cli: "user-prompt-submit", kind: "prompt" },
  {
    native: "PreToolUse",
    cli: "pre-tool-use",
    kind: "pre-tool",
    matcher: "Write|Edit|MultiEdit|NotebookEdit|Bash",
  },
  {
    native: "PostToolUse",
    cli: "post-tool-use",
    kind: "post-tool",
    matcher: "Write|Edit|MultiEdit|NotebookEdit|Bash",
  },
  { native: "Stop", cli: "stop", kind: "stop" },
  { native: "SessionEnd", cli: "session-end", kind: "session-end", timeout: 5 },
];

function render(kind: HookKind, event: WiredEvent | null, v: Verdict): Rendered {
  // Exit 2 keeps the same turn going with stderr as the model's next instruction (docs/clients.md §1.3).
  if (kind === "stop" && v.block) return { exitCode: 2, stdout: "", stderr: `${v.reason}\n` };
  return nestedAnswer(kind, event, v);
}

export const claudeCode: ClientSpec = {
  name: "claude-code",
  settingsFile: ".claude/settings.json",
  layout: "nested",
  events: EVENTS,
  sessionEnv: ["CLAUDE_CODE_SESSION_ID"],
  processName: "claude",
  parse(cliEvent, payload) {
    if (!isObj(payload)) return fail("payload is not a JSON object");
    // Cursor runs Claude's hook files with its own payloads; its own hooks handle those (docs/clients.md §4).
    if ("cursor_version" in payload)
      return { ok: false, skip: true, reason: "Cursor payload on a Claude Code hook" };
    const sessionId = str(payload, "session_id");
    if (!sessionId) return fail("payload has no session_id");
    const wired = EVENTS.find((e) => e.cli === cliEvent);
    const input = baseInput(
      "claude-code",
      wired?.kind ?? "other",
      wired?.native ?? cliEvent,
      sessionId,
      payload,
    );
    input.turnId = str(payload, "prompt_id");
    input.tool = toolFrom(payload);
    input.prompt = str(payload, "prompt");
    return { ok: true, input };
  },
  render,
};
