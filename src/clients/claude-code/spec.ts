import { baseInput, fail, isObj, json, nestedAnswer, SILENT, str, toolFrom } from "../payload.js";
import { disableAllHooks } from "../switches.js";
import type { ClientSpec, HookKind, Rendered, Verdict, WiredEvent } from "../types.js";

const SETTINGS = ".claude/settings.json";

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
  // A call that failed (a Bash command exiting non-zero) fires this instead of PostToolUse, with
  // the output in `error`: the same follow-up, so a write the kernel refused is told there too.
  {
    native: "PostToolUseFailure",
    cli: "post-tool-use-failure",
    kind: "post-tool",
    matcher: "Write|Edit|MultiEdit|NotebookEdit|Bash",
  },
  { native: "Stop", cli: "stop", kind: "stop" },
  { native: "SessionEnd", cli: "session-end", kind: "session-end", timeout: 5 },
];

function render(kind: HookKind, event: WiredEvent | null, v: Verdict): Rendered {
  // A JSON block keeps the turn going like exit 2, but the person's screen shows only the reason;
  // exit 2 prefixes it with the hook's command line (docs/clients.md §1.6).
  if (kind === "stop" && v.block) return { ...SILENT, stdout: json({ decision: "block", reason: v.reason }) };
  return nestedAnswer(kind, event, v);
}

export const claudeCode: ClientSpec<"claude-code"> = {
  name: "claude-code",
  label: "Claude Code",
  settingsFile: SETTINGS,
  wiring: [
    { file: SETTINGS, what: "Claude Code's hooks" },
    // Claude Code (and Cursor) run the hooks of the local file too, and it can disable them all.
    { file: ".claude/settings.local.json", what: "Claude Code's local hooks" },
  ],
  // `disableAllHooks: true` in either file switches every hook off (docs/clients.md §1.1).
  settingsSwitches: { [SETTINGS]: [disableAllHooks], ".claude/settings.local.json": [disableAllHooks] },
  // CLAUDE_CONFIG_DIR moves ~/.claude whole.
  userSwitches: [
    { dir: ".claude", file: "settings.json", dirEnv: "CLAUDE_CONFIG_DIR", switches: [disableAllHooks] },
  ],
  layout: "nested",
  events: EVENTS,
  sessionEnv: ["CLAUDE_CODE_SESSION_ID"],
  givesProjectDir: true,
  allowRules: true,
  processName: "claude",
  ui: { kind: "env-pid", variable: "CLAUDE_PID" },
  ritual: { form: "enforced", capsItself: false, statusBox: true, prompt: "reminder" },
  commandRewrite: { via: "hook-output", tool: "Bash", field: "command", used: true },
  // The child may run git in its own worktree: Bash is allowed along with the edit tools.
  subagent: {
    command: "claude",
    args: [
      "-p",
      "--permission-mode",
      "acceptEdits",
      "--allowedTools",
      "Bash Edit Write MultiEdit NotebookEdit",
    ],
  },
  parse(cliEvent, payload) {
    if (!isObj(payload)) return fail("payload is not a JSON object");
    // Cursor runs Claude's hook files with its own payloads; its own hooks handle those (docs/clients.md §4).
    if ("cursor_version" in payload)
      return { ok: false, skip: true, reason: "Cursor payload on a Claude Code hook" };
    // Copilot CLI runs them too, with an ISO `timestamp` Claude Code never sends (docs/clients.md §12).
    if (typeof payload.timestamp === "string")
      return { ok: false, skip: true, reason: "Copilot CLI payload on a Claude Code hook" };
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
