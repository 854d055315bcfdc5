import { baseInput, fail, isObj, json, type Obj, str } from "../payload.js";
import type {
  ClientSpec,
  HookInput,
  HookKind,
  ParseResult,
  Rendered,
  ToolCall,
  Verdict,
  WiredEvent,
} from "../types.js";
import { withHeadline } from "./headline.js";
import { clineHookFiles, HOOKS_DIR } from "./hook-files.js";
import { clinePluginText, PLUGIN_DIR, PLUGIN_FILE, REFUSAL_KEY } from "./plugin.js";

/**
 * Cline CLI (docs/clients.md §14): its hooks are executable files named after the event in
 * `.clinerules/hooks/`, each given the event's JSON on stdin (decision 0039). The CLI names the
 * file; Tandem's name for the event is the kebab form after `tandem hook cline`.
 *
 * TaskStart and TaskResume fire before every run of the agent, that is every turn, while
 * UserPromptSubmit never fires for a headless prompt: they are the turn's start (a prompt), or
 * every turn after the first would be judged with the first turn's ritual (decision 0039).
 */
const EVENTS: WiredEvent[] = [
  { native: "TaskStart", cli: "task-start", kind: "prompt" },
  { native: "TaskResume", cli: "task-resume", kind: "prompt" },
  { native: "UserPromptSubmit", cli: "user-prompt-submit", kind: "prompt" },
  { native: "PreToolUse", cli: "pre-tool-use", kind: "pre-tool" },
  { native: "PostToolUse", cli: "post-tool-use", kind: "post-tool" },
  { native: "TaskComplete", cli: "task-complete", kind: "stop" },
  { native: "SessionShutdown", cli: "session-shutdown", kind: "session-end" },
];

/** The hook files in the order init lists them, `settingsFile` first. */
const FILE_ORDER = [
  EVENTS.find((e) => e.native === "PreToolUse")!,
  ...EVENTS.filter((e) => e.native !== "PreToolUse"),
];

/**
 * `run_commands` runs each command in its own shell from the workspace root, side by side: the
 * shell reader gets them as one script of subshells, so a `cd` in one cannot move another's paths
 * and the claim covers every command, all or nothing.
 */
function script(commands: unknown): string {
  const list = Array.isArray(commands) ? commands.filter((c): c is string => typeof c === "string") : [];
  if (typeof commands === "string") list.push(commands);
  return list.map((c) => `(\n${c}\n)`).join("\n");
}

/**
 * Cline's write tools become the shapes the target reader knows (docs/clients.md §14.2): `editor`
 * (create, replace or insert in one file) is an `Edit` of its `path`; `run_commands` a `Bash` script;
 * `apply_patch` keeps its envelope. Other tools (reads, searches, `spawn_agent`, whose agent runs in
 * this process and whose own tool calls come through these hooks) claim nothing.
 */
function normalizedTool(call: Obj): ToolCall | null {
  const name = str(call, "name");
  const input: Obj = isObj(call.input) ? call.input : {};
  const useId = str(call, "id");
  switch (name) {
    case "editor":
      return { name: "Edit", input: { ...input, file_path: str(input, "path") }, useId };
    case "run_commands":
      return { name: "Bash", input: { command: script(input.commands) }, useId };
    case "apply_patch":
      return { name: "apply_patch", input: typeof call.input === "string" ? call.input : input, useId };
    case null:
      return null;
    default:
      return { name, input, useId };
  }
}

/** The call a tool event is about: `tool_call` before it runs, `tool_result` after. */
function toolOf(p: Obj): ToolCall | null {
  const call = isObj(p.tool_call) ? p.tool_call : isObj(p.tool_result) ? p.tool_result : null;
  return call ? normalizedTool(call) : null;
}

/**
 * One Cline session is one Tandem session: `sessionContext.rootSessionId` is the same for the
 * agent and the sub-agents it spawns in its own process (their `taskId`s differ), and it is what
 * `cline --id` resumes. A sub-agent starting or finishing is not the person's turn starting or ending.
 */
function parse(cliEvent: string, payload: unknown): ParseResult {
  if (!isObj(payload)) return fail("payload is not a JSON object");
  const context = isObj(payload.sessionContext) ? payload.sessionContext : {};
  const sessionId = str(context, "rootSessionId") ?? str(payload, "taskId");
  if (!sessionId) return fail("payload has neither sessionContext.rootSessionId nor taskId");
  const wired = EVENTS.find((e) => e.cli === cliEvent);
  const kind = wired?.kind ?? "other";
  const subAgent = typeof payload.parent_agent_id === "string" && payload.parent_agent_id !== "";
  // Only a sub-agent's tool calls are the session's; its start would open a new turn mid-turn.
  if (subAgent && kind !== "pre-tool" && kind !== "post-tool") {
    return {
      ok: false,
      skip: true,
      reason: `a sub-agent's ${wired?.native ?? cliEvent} is not the session's`,
    };
  }
  const input: HookInput = baseInput("cline", kind, wired?.native ?? cliEvent, sessionId, payload);
  const roots = Array.isArray(payload.workspaceRoots) ? payload.workspaceRoots : [];
  input.cwd = typeof roots[0] === "string" ? roots[0] : null;
  input.tool = toolOf(payload);
  const prompt = isObj(payload.userPromptSubmit) ? str(payload.userPromptSubmit, "prompt") : null;
  input.prompt = kind === "prompt" ? prompt : null;
  const native = wired?.native;
  input.source = native === "TaskResume" ? "resume" : native === "TaskStart" ? "startup" : null;
  const turn = isObj(payload.turn) ? payload.turn : null;
  input.lastAssistantMessage = kind === "stop" && turn ? str(turn, "outputText") : null;
  return { ok: true, input };
}

/**
 * What Cline reads back (docs/clients.md §14.3). Only PreToolUse and PostToolUse are awaited;
 * the other hooks run detached and their output is dropped. `{"cancel": true}` would abort the
 * whole task with the reason shown to no one, so a refusal replaces the call's input with the
 * reason alone, which Tandem's plugin turns into a skipped call showing it (decision 0066) and
 * every write tool rejects before it touches a file without the plugin; the reason also goes
 * before the model as the hook's context (decision 0039). Every answer is a JSON object, so the hook file can
 * tell an answer from a Tandem that failed to give one.
 */
function render(kind: HookKind, _event: WiredEvent | null, v: Verdict): Rendered {
  const none = { exitCode: 0, stderr: "" };
  if (kind === "pre-tool" && !v.allow) {
    // Cline shows the person one line of it: the holder and what to do go first (headline.ts).
    const reason = v.reason === null ? null : withHeadline(v.reason);
    const overrideInput = { [REFUSAL_KEY]: reason };
    return { ...none, stdout: json({ cancel: false, overrideInput, contextModification: reason }) };
  }
  if (v.context && (kind === "pre-tool" || kind === "post-tool")) {
    return { ...none, stdout: json({ cancel: false, contextModification: v.context }) };
  }
  return { ...none, stdout: json({}) };
}

export const cline: ClientSpec<"cline"> = {
  name: "cline",
  label: "Cline CLI",
  settingsFile: `${HOOKS_DIR}/PreToolUse`,
  // Any file named after an event in this folder is a hook Cline runs (one could cancel every call).
  wiring: [
    { file: `${HOOKS_DIR}/PreToolUse`, what: "Cline CLI's hook files" },
    { file: HOOKS_DIR, what: "Cline CLI's hook files", dir: true },
    { file: PLUGIN_FILE, what: "Cline CLI's Tandem plugin" },
    // A plugin there runs in the same beforeTool hooks and could change a call after Tandem's check.
    { file: PLUGIN_DIR, what: "Cline CLI's project plugins", dir: true },
  ],
  layout: "files",
  // PreToolUse first: it is the settings file, the one whose marker doctor reads the launcher from.
  // The plugin refuses a file call visibly (skip); the hook files stay the gate for everything else.
  hookFiles: (launcher, person) => [
    ...clineHookFiles(FILE_ORDER, launcher, person),
    { path: PLUGIN_FILE, text: clinePluginText(launcher, "pre-tool-use"), executable: false },
  ],
  events: EVENTS,
  // 3.0.65 gives its hooks and shells no session variable: the shell is found by ancestry.
  sessionEnv: [],
  givesProjectDir: false,
  processName: "cline",
  // A running hub daemon (`cline --cline-hub-daemon`, shared, detached) runs the agents, hooks and
  // shells; the person's `cline` is the one working in the session's directory (docs/clients.md §14.4).
  ui: { kind: "agent", daemonArgs: ["--cline-hub-daemon"], notUi: ["--cline-hub-daemon", "hook"] },
  // Its start and prompt hooks run detached and their answers are dropped: the name, peers and
  // ritual go with each turn's first tool result (PostToolUse is awaited and its context kept).
  ritual: {
    form: "observed",
    capsItself: false,
    statusBox: false,
    prompt: "reminder",
    promptVia: "first-tool",
  },
  commandRewrite: { via: "hook-output", tool: "execute_command", field: "command", used: false },
  // A prompt is one argument after the options; a single word is read as an unknown subcommand.
  // Local: under a shared hub daemon the child's agent, hooks and shells would be the daemon's
  // children, without the variables that make its hooks a sub-agent's (docs/clients.md §14.4).
  subagent: {
    command: "cline",
    args: ["--auto-approve", "true"],
    env: { CLINE_SESSION_BACKEND_MODE: "local" },
  },
  parse,
  render,
};
