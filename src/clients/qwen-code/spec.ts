import { baseInput, fail, isObj, json, nestedAnswer, type Obj, SILENT, str, toolFrom } from "../payload.js";
import { disableAllHooks } from "../switches.js";
import type { ClientSpec, HookKind, ParseResult, Rendered, ToolCall, Verdict, WiredEvent } from "../types.js";

const SETTINGS = ".qwen/settings.json";

/**
 * Qwen Code's tools that write files or run commands (docs/clients.md §15.2), as regex alternatives:
 * a matcher starting with `^` is one anchored regex to Qwen 0.24.4. `monitor` runs a long-lived
 * shell command (reached through `tool_call`, whose hooks fire under the underlying tool's name).
 */
const TOOLS = "^(write_file|edit|notebook_edit|run_shell_command|monitor)$";
/**
 * The tools whose approval dialog shows the file's new content ("Apply this change?"). Qwen fires
 * PermissionRequest for them before that dialog, and PreToolUse only after the person said yes
 * (docs/clients.md §15.7): a peer's file is refused there first. Shell commands are left to
 * PreToolUse, whose check also snapshots what the command may touch and must run once.
 */
const FILE_TOOLS = "^(write_file|edit|notebook_edit)$";
/** Qwen's hook listing and `/hooks` show handlers by name. */
const NAME = "tandem";

const EVENTS: WiredEvent[] = [
  { native: "SessionStart", cli: "session-start", kind: "session-start", name: NAME },
  { native: "UserPromptSubmit", cli: "user-prompt-submit", kind: "prompt", name: NAME },
  {
    native: "PermissionRequest",
    cli: "permission-request",
    kind: "pre-tool",
    matcher: FILE_TOOLS,
    name: NAME,
  },
  { native: "PreToolUse", cli: "pre-tool-use", kind: "pre-tool", matcher: TOOLS, name: NAME },
  { native: "PostToolUse", cli: "post-tool-use", kind: "post-tool", matcher: TOOLS, name: NAME },
  { native: "Stop", cli: "stop", kind: "stop", name: NAME },
  // Seconds (values under 1000); Qwen fires it only when the interactive UI exits or on /clear.
  { native: "SessionEnd", cli: "session-end", kind: "session-end", timeout: 5, name: NAME },
];

/**
 * Qwen's own tool names become the shapes the target reader knows: `edit` is Claude's `Edit`
 * (`file_path`), `notebook_edit` its `NotebookEdit` (`notebook_path`), `monitor` a shell command.
 * `write_file` and `run_shell_command` are Gemini's names, known already; the shell runs in its
 * `directory` (absolute, Qwen refuses any other) when the model names one.
 */
function normalized(tool: ToolCall): ToolCall {
  const input: Obj = isObj(tool.input) ? tool.input : {};
  switch (tool.name) {
    case "edit":
      return { ...tool, name: "Edit" };
    case "notebook_edit":
      return { ...tool, name: "NotebookEdit" };
    case "monitor":
      return { ...tool, name: "run_shell_command" };
    case "run_shell_command": {
      const dir = str(input, "directory");
      return dir ? { ...tool, cwd: dir } : tool;
    }
    default:
      return tool;
  }
}

/**
 * Qwen fires UserPromptSubmit before every model request of a turn, not only for the person's
 * prompt: after each tool result with an empty `prompt`, and with a blocking Stop's reason as the
 * `prompt` of the continuation (no `submitted_prompt` then). The empty ones are no prompt at all;
 * taken as prompts they would open a new ritual window after every tool call. The Stop
 * continuation is kept and recognised as a repair turn by its text (ritual.plainFollowUp).
 */
function promptSkip(p: Obj): ParseResult | null {
  const prompt = str(p, "prompt") ?? "";
  if (prompt.trim() !== "" || (str(p, "submitted_prompt") ?? "").trim() !== "") return null;
  return { ok: false, skip: true, reason: "Qwen Code's continuation after a tool result, not a prompt" };
}

function parse(cliEvent: string, payload: unknown): ParseResult {
  if (!isObj(payload)) return fail("payload is not a JSON object");
  const sessionId = str(payload, "session_id");
  if (!sessionId) return fail("payload has no session_id");
  const wired = EVENTS.find((e) => e.cli === cliEvent);
  const kind = wired?.kind ?? "other";
  if (kind === "prompt") {
    const skip = promptSkip(payload);
    if (skip) return skip;
  }
  const input = baseInput("qwen-code", kind, wired?.native ?? cliEvent, sessionId, payload);
  // `<session id>########<n>`: the same for every model request and Stop of one prompt.
  input.turnId = str(payload, "prompt_id");
  const tool = toolFrom(payload);
  input.tool = tool ? normalized(tool) : null;
  input.prompt = kind === "prompt" ? str(payload, "prompt") : null;
  if (kind === "session-end") input.source = str(payload, "reason");
  return { ok: true, input };
}

/**
 * Claude's wire shapes, which Qwen reads the same way: a PreToolUse deny as `hookSpecificOutput`
 * (the model reads the reason as the tool's error; exit 2 would work too, with stderr as the
 * reason), context as `additionalContext`. A blocking Stop is `{decision: "block", reason}`: Qwen
 * sends the reason as the next user message of the same prompt and fires Stop again with
 * `stop_hook_active: true` (docs/clients.md §15.3).
 */
function render(kind: HookKind, event: WiredEvent | null, v: Verdict): Rendered {
  if (event?.native === "PermissionRequest") return permissionAnswer(v);
  if (kind === "stop")
    return v.block ? { ...SILENT, stdout: json({ decision: "block", reason: v.reason }) } : SILENT;
  // SessionEnd's output is never read; a context there would only be noise in a debug log.
  if (kind === "session-end") return SILENT;
  return nestedAnswer(kind, event, v);
}

/**
 * PermissionRequest runs the same check as PreToolUse, before Qwen asks the person. A refusal is
 * Qwen's `decision.behavior: "deny"`: the call ends, not started, with the message as its result,
 * and no dialog shows. An allowed call gets no decision, so Qwen asks as it would have (the claim
 * taken now is the one PreToolUse confirms after "Yes").
 */
function permissionAnswer(v: Verdict): Rendered {
  if (v.allow) return SILENT;
  const decision = { behavior: "deny", message: v.reason };
  return {
    ...SILENT,
    stdout: json({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision } }),
  };
}

export const qwenCode: ClientSpec<"qwen-code"> = {
  name: "qwen-code",
  label: "Qwen Code",
  settingsFile: SETTINGS,
  // Its `disableAllHooks: true` turns every Qwen hook off (docs/clients.md §15.1).
  wiring: [{ file: SETTINGS, what: "Qwen Code's hooks and settings" }],
  settingsSwitches: { [SETTINGS]: [disableAllHooks] },
  userSwitches: [{ dir: ".qwen", file: "settings.json", dirEnv: "QWEN_HOME", switches: [disableAllHooks] }],
  layout: "nested",
  events: EVENTS,
  // Qwen rewrites a project settings file without `"$version": 4` (its settings schema) on every
  // load (0.24.4): the committed wiring, and each sub-agent worktree's copy, would turn dirty.
  settingsKeys: { $version: 4 },
  // Given to hooks and to the agent's shell commands alike (observed, 0.24.4).
  sessionEnv: ["QWEN_CODE_SESSION_ID"],
  // It sets CLAUDE_PROJECT_DIR to its working directory, which the payload's `cwd` already says.
  givesProjectDir: false,
  allowRules: true,
  processName: "qwen",
  // Headless `qwen --yolo "<prompt>"` fires no SessionEnd: its process is what says it left.
  ui: { kind: "agent", daemonArgs: [], notUi: [] },
  // A blocked Stop continues the same prompt (enforced); Qwen also echoes the reason through
  // UserPromptSubmit, recognised by the remediation text's lead so it opens no new window.
  ritual: { form: "enforced", plainFollowUp: true, capsItself: false, statusBox: true, prompt: "reminder" },
  commandRewrite: { via: "unconfirmed", tool: "run_shell_command", field: "command", used: false },
  // Headless with a prompt; `--yolo` approves its edits and shell in the child's own worktree.
  subagent: { command: "qwen", args: ["--yolo"], promptFlag: "--prompt=" },
  parse,
  render,
};
