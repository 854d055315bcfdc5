import { isAbsolute, resolve } from "node:path";
import { baseInput, fail, isObj, json, type Obj, SILENT, str, toolFrom } from "../payload.js";
import { hooksConfigDisabled, hooksConfigEnabled } from "../switches.js";
import type { ClientSpec, HookKind, Rendered, ToolCall, Verdict, WiredEvent } from "../types.js";

const SETTINGS = ".gemini/settings.json";

/** Gemini's tools that write files or run commands (docs/clients.md §13.2); a regex, anchored. */
const TOOLS = "^(write_file|replace|run_shell_command)$";
/** Gemini lists project hooks by name when it first meets them, and `hooksConfig.disabled` takes names. */
const NAME = "tandem";

const EVENTS: WiredEvent[] = [
  { native: "SessionStart", cli: "session-start", kind: "session-start", name: NAME },
  { native: "BeforeAgent", cli: "before-agent", kind: "prompt", name: NAME },
  { native: "BeforeTool", cli: "before-tool", kind: "pre-tool", matcher: TOOLS, name: NAME },
  { native: "AfterTool", cli: "after-tool", kind: "post-tool", matcher: TOOLS, name: NAME },
  { native: "AfterAgent", cli: "after-agent", kind: "stop", name: NAME },
  { native: "SessionEnd", cli: "session-end", kind: "session-end", name: NAME },
];

/**
 * `run_shell_command` runs in `dir_path` (relative to the project) when the model names one: the
 * shell reader must resolve the command's paths there, not in the project root.
 */
function toolOf(p: Obj, cwd: string | null): ToolCall | null {
  const tool = toolFrom(p);
  if (tool?.name !== "run_shell_command" || !isObj(tool.input)) return tool;
  const dir = str(tool.input, "dir_path");
  if (!dir) return tool;
  if (isAbsolute(dir)) return { ...tool, cwd: dir };
  return cwd ? { ...tool, cwd: resolve(cwd, dir) } : tool;
}

/** Headless Gemini puts SessionStart's context in front of the first prompt; the person typed the rest. */
function typed(prompt: string | null): string | null {
  return prompt?.replace(/^(?:<hook_context>[\s\S]*?<\/hook_context>\s*)+/, "") ?? null;
}

/**
 * A deny is exit 0 with `{decision: "deny", reason}`: the model reads "Tool execution blocked:
 * <reason>". Gemini's UI hides a failed tool call at its default error verbosity, so the refusal
 * also goes in `systemMessage`, which the UI prints as a plain line of the transcript. A blocking
 * AfterAgent answer makes Gemini show "Agent execution blocked: <reason>" and send the reason as a
 * new prompt (BeforeAgent fires with it); it carries no `systemMessage`, which would print the same
 * text twice (docs/clients.md §13.3, decision 0031).
 */
function render(kind: HookKind, event: WiredEvent | null, v: Verdict): Rendered {
  if (kind === "pre-tool" && !v.allow)
    return { ...SILENT, stdout: json({ decision: "deny", reason: v.reason, systemMessage: v.reason }) };
  if (kind === "stop")
    return v.block ? { ...SILENT, stdout: json({ decision: "deny", reason: v.reason }) } : SILENT;
  if (v.context && kind !== "session-end") {
    return {
      ...SILENT,
      stdout: json({ hookSpecificOutput: { hookEventName: event?.native, additionalContext: v.context } }),
    };
  }
  return SILENT;
}

export const geminiCli: ClientSpec<"gemini-cli"> = {
  name: "gemini-cli",
  label: "Gemini CLI",
  settingsFile: SETTINGS,
  // Its `hooksConfig.enabled: false` turns every Gemini hook off too (docs/clients.md §13.1).
  wiring: [{ file: SETTINGS, what: "Gemini CLI's hooks and settings" }],
  settingsSwitches: { [SETTINGS]: [hooksConfigEnabled, hooksConfigDisabled(NAME)] },
  // GEMINI_CLI_HOME stands for the home directory: `$GEMINI_CLI_HOME/.gemini/settings.json`.
  userSwitches: [
    {
      dir: ".gemini",
      file: "settings.json",
      homeEnv: "GEMINI_CLI_HOME",
      switches: [hooksConfigEnabled, hooksConfigDisabled(NAME)],
    },
  ],
  layout: "nested",
  events: EVENTS,
  // Given to hooks; 0.61.0 does not give it to the agent's shell, which is found by ancestry.
  sessionEnv: ["GEMINI_SESSION_ID"],
  givesProjectDir: false,
  processName: "gemini",
  // The `node …/gemini.js` process is the UI; a closed terminal fires no SessionEnd.
  ui: { kind: "agent", daemonArgs: [], notUi: [] },
  ritual: { form: "follow-up", plainFollowUp: true, capsItself: false, statusBox: false, prompt: "reminder" },
  commandRewrite: { via: "hook-output", tool: "run_shell_command", field: "command", used: false },
  // Headless only with `--prompt`; a bare prompt without a terminal exits 42 (docs/clients.md §13.5).
  subagent: { command: "gemini", args: ["--yolo"], promptFlag: "--prompt=" },
  trust: "trusted-folders",
  parse(cliEvent, payload) {
    if (!isObj(payload)) return fail("payload is not a JSON object");
    const sessionId = str(payload, "session_id");
    if (!sessionId) return fail("payload has no session_id");
    const wired = EVENTS.find((e) => e.cli === cliEvent);
    const input = baseInput(
      "gemini-cli",
      wired?.kind ?? "other",
      wired?.native ?? cliEvent,
      sessionId,
      payload,
    );
    input.tool = toolOf(payload, input.cwd);
    input.prompt = typed(str(payload, "prompt"));
    // AfterAgent's `prompt` is the turn's first prompt, not a new one: only BeforeAgent submits.
    if (wired?.kind === "stop") {
      input.prompt = null;
      input.lastAssistantMessage = str(payload, "prompt_response");
    }
    return { ok: true, input };
  },
  render,
};
