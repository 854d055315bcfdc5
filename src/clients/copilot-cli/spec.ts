import { baseInput, fail, isObj, json, type Obj, SILENT, str } from "../payload.js";
import { disableAllHooks } from "../switches.js";
import type { ClientSpec, HookKind, Rendered, ToolCall, Verdict, WiredEvent } from "../types.js";

const SETTINGS = ".github/hooks/tandem.json";

/**
 * GitHub Copilot CLI (docs/clients.md §12), wired in its native format (docs/decisions/0017): one
 * `.github/hooks/tandem.json` of `{version: 1, hooks: {event: [{type, bash, timeoutSec}]}}`. Native
 * entries have no matcher, so every tool call reaches the tool hooks and `parse` drops the ones that
 * cannot write. Copilot lets a timed-out hook pass, hence the generous timeouts on the gated events.
 */
const EVENTS: WiredEvent[] = [
  { native: "sessionStart", cli: "session-start", kind: "session-start", timeout: 30 },
  { native: "userPromptSubmitted", cli: "user-prompt-submitted", kind: "prompt", timeout: 30 },
  { native: "preToolUse", cli: "pre-tool-use", kind: "pre-tool", timeout: 60 },
  { native: "postToolUse", cli: "post-tool-use", kind: "post-tool", timeout: 60 },
  { native: "agentStop", cli: "agent-stop", kind: "stop", timeout: 60 },
  { native: "sessionEnd", cli: "session-end", kind: "session-end", timeout: 5 },
];

/** The same events as Copilot names them in Claude-shaped hook files (payloads then snake_case). */
const CLAUDE_NAMES: Readonly<Record<string, HookKind>> = {
  SessionStart: "session-start",
  UserPromptSubmit: "prompt",
  PreToolUse: "pre-tool",
  PostToolUse: "post-tool",
  Stop: "stop",
  SessionEnd: "session-end",
};

/**
 * Copilot's file tools keep their own argument names in both formats (`path`, `file_text`,
 * `old_str`, `new_str`); they become the Claude shapes the target reader knows. gpt-5 models get
 * the freeform `apply_patch` instead, whose input is the raw patch text.
 */
function normalizedTool(name: string, args: unknown): ToolCall | null {
  const a: Obj = isObj(args) ? args : {};
  const path = str(a, "path") ?? str(a, "file_path");
  switch (name) {
    case "create":
    case "Write":
      return { name: "Write", input: { file_path: path, content: str(a, "file_text") ?? "" }, useId: null };
    case "edit":
    case "Edit":
      return {
        name: "Edit",
        input: { file_path: path, old_string: str(a, "old_str"), new_string: str(a, "new_str") },
        useId: null,
      };
    case "bash":
    case "Bash":
      return { name: "Bash", input: { command: str(a, "command") ?? "" }, useId: null };
    case "apply_patch":
      return { name: "apply_patch", input: typeof args === "string" ? args : a, useId: null };
    default:
      // view, grep, glob, read_bash, task…: nothing to claim (the matcher native files lack).
      return null;
  }
}

/** `toolArgs` is an object for function tools and a string for the freeform patch. */
function decodedArgs(v: unknown): unknown {
  if (typeof v !== "string" || !v.trimStart().startsWith("{")) return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

function kindOf(cliEvent: string, p: Obj): { kind: HookKind; native: string } {
  const wired = EVENTS.find((e) => e.cli === cliEvent);
  if (wired) return { kind: wired.kind, native: wired.native };
  const claude = str(p, "hook_event_name");
  const kind = claude ? CLAUDE_NAMES[claude] : undefined;
  return kind ? { kind, native: claude! } : { kind: "other", native: cliEvent };
}

function parse(cliEvent: string, payload: unknown) {
  if (!isObj(payload)) return fail("payload is not a JSON object");
  // Fires once per file after preToolUse has judged the whole call (also with --allow-all).
  if (str(payload, "hookName") === "permissionRequest")
    return { ok: false as const, skip: true as const, reason: "permission request" };
  const claudeShaped = "hook_event_name" in payload;
  const sessionId = str(payload, claudeShaped ? "session_id" : "sessionId");
  if (!sessionId) return fail(`payload has no ${claudeShaped ? "session_id" : "sessionId"}`);
  const { kind, native } = kindOf(cliEvent, payload);
  const input = baseInput("copilot-cli", kind, native, sessionId, payload);
  input.prompt = str(payload, "prompt") ?? str(payload, "initialPrompt") ?? str(payload, "initial_prompt");
  if (kind === "session-end") input.source = str(payload, "reason");
  if (kind === "pre-tool" || kind === "post-tool") {
    const name = str(payload, claudeShaped ? "tool_name" : "toolName") ?? "";
    const tool = normalizedTool(name, decodedArgs(payload[claudeShaped ? "tool_input" : "toolArgs"]));
    if (!tool) return { ok: false as const, skip: true as const, reason: `${name} writes nothing` };
    input.tool = tool;
  }
  return { ok: true as const, input };
}

/**
 * Copilot reads `permissionDecision` at the top level (exit 2 would deny with a generic reason the
 * model cannot act on) and only top-level `additionalContext`; a blocked agentStop starts another
 * turn with the reason as the prompt.
 */
function render(kind: HookKind, _event: WiredEvent | null, v: Verdict): Rendered {
  if (kind === "pre-tool" && !v.allow)
    return { ...SILENT, stdout: json({ permissionDecision: "deny", permissionDecisionReason: v.reason }) };
  if (kind === "stop")
    return v.block ? { ...SILENT, stdout: json({ decision: "block", reason: v.reason }) } : SILENT;
  if (v.context && kind !== "session-end")
    return { ...SILENT, stdout: json({ additionalContext: v.context }) };
  return SILENT;
}

export const copilotCli: ClientSpec<"copilot-cli"> = {
  name: "copilot-cli",
  label: "Copilot CLI",
  settingsFile: SETTINGS,
  // `disableAllHooks` (1.0.102's settings table: "Disable all hooks, both user-level and repo-level"),
  // in the repository's two files and the person's `$COPILOT_HOME/settings.json` (`~/.copilot`).
  settingsSwitches: {
    ".github/copilot/settings.json": [disableAllHooks],
    ".github/copilot/settings.local.json": [disableAllHooks],
  },
  userSwitches: [
    { dir: ".copilot", file: "settings.json", dirEnv: "COPILOT_HOME", switches: [disableAllHooks] },
  ],
  wiring: [
    { file: SETTINGS, what: "Copilot CLI's hooks" },
    // `disableAllHooks` in either turns every Copilot hook off (docs/clients.md §12).
    { file: ".github/copilot/settings.json", what: "Copilot CLI's repository settings" },
    { file: ".github/copilot/settings.local.json", what: "Copilot CLI's local settings" },
  ],
  layout: "copilot",
  events: EVENTS,
  // No variable names the session in the agent's shell: commands find it by process ancestry.
  sessionEnv: [],
  givesProjectDir: false,
  processName: "copilot",
  // The native binary is both the agent and the screen the person sees; nothing outlives it.
  ui: { kind: "agent", daemonArgs: [], notUi: [] },
  ritual: { form: "follow-up", capsItself: false, statusBox: false, prompt: "reminder" },
  commandRewrite: { via: "unconfirmed", tool: "bash", field: "command", used: false },
  // Repo hooks load in prompt mode only in a trusted folder: --trust-folder trusts this run's alone.
  // The prompt is the value of -p; `--prompt=` keeps one starting with `-` a value.
  subagent: {
    command: "copilot",
    args: ["--allow-all", "--trust-folder", "--no-ask-user"],
    promptFlag: "--prompt=",
  },
  // Prompt mode (-p, piped stdin) ends every completed turn so; src/hooks/lifecycle.ts.
  runEndReasons: ["complete", "error"],
  trust: "folder-trust-config",
  parse,
  render,
};
