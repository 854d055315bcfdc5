import { isAbsolute, resolve } from "node:path";
import { fail, isObj, json, type Obj, SILENT, str } from "../payload.js";
import type { ClientSpec, HookInput, HookKind, Rendered, ToolCall, Verdict, WiredEvent } from "../types.js";
import { PLUGIN_FILE, pluginText } from "./plugin.js";

/**
 * opencode (docs/clients.md §16): its hooks are a JavaScript plugin, `.opencode/plugins/tandem.js`,
 * which Tandem writes whole (layout `files`, decision 0041). The plugin runs `<launcher> hook
 * opencode <cli>` for each event below with a JSON payload of its own making on stdin
 * (`{hook, session_id, native_session_id, directory, input, output}` or `{hook, session_id,
 * directory, event}`) and acts on the JSON answer (`render`).
 */
const EVENTS: WiredEvent[] = [
  { native: "session.created", cli: "session-start", kind: "session-start" },
  { native: "chat.message", cli: "chat-message", kind: "prompt" },
  { native: "tool.execute.before", cli: "tool-before", kind: "pre-tool" },
  { native: "tool.execute.after", cli: "tool-after", kind: "post-tool" },
  { native: "session.idle", cli: "session-idle", kind: "stop" },
  { native: "dispose", cli: "session-end", kind: "session-end" },
];

/** opencode's tools that write files or run commands; the plugin calls Tandem for these alone. */
export const WRITE_TOOLS = ["write", "edit", "apply_patch", "bash"] as const;

/**
 * opencode's tool arguments become the Claude shapes the target reader knows: `write {filePath,
 * content}`, `edit {filePath, oldString, newString}`, `bash {command, workdir}` (run in `workdir`,
 * relative to the project), and `apply_patch {patchText}` (gpt- models), whose patch is Codex's format.
 */
export function normalizedTool(
  name: string,
  args: unknown,
  cwd: string | null,
  id: string | null,
): ToolCall | null {
  const a: Obj = isObj(args) ? args : {};
  const file = str(a, "filePath");
  switch (name) {
    case "write":
      return { name: "Write", input: { file_path: file, content: str(a, "content") ?? "" }, useId: id };
    case "edit":
      return {
        name: "Edit",
        input: { file_path: file, old_string: str(a, "oldString"), new_string: str(a, "newString") },
        useId: id,
      };
    case "apply_patch":
      return { name: "apply_patch", input: str(a, "patchText") ?? "", useId: id };
    case "bash": {
      const tool: ToolCall = { name: "Bash", input: { command: str(a, "command") ?? "" }, useId: id };
      const dir = str(a, "workdir");
      if (!dir) return tool;
      if (isAbsolute(dir)) return { ...tool, cwd: dir };
      return cwd ? { ...tool, cwd: resolve(cwd, dir) } : tool;
    }
    default:
      // read, grep, glob, task (its sub-agent's own tool calls come through here one by one)…
      return null;
  }
}

/** The prompt as typed: the text parts opencode did not add itself. */
function promptText(output: unknown): string | null {
  const parts = isObj(output) && Array.isArray(output.parts) ? output.parts : [];
  const texts = parts.filter((p): p is Obj => isObj(p) && p.type === "text" && p.synthetic !== true);
  return texts.length > 0 ? texts.map((p) => str(p, "text") ?? "").join("\n") : null;
}

function toolPart(input: HookInput, p: Obj): ParseOutcome | null {
  const hookIn = isObj(p.input) ? p.input : {};
  const name = str(hookIn, "tool") ?? "";
  const args = input.kind === "pre-tool" ? (isObj(p.output) ? p.output.args : undefined) : hookIn.args;
  const tool = normalizedTool(name, args, input.cwd, str(hookIn, "callID"));
  if (!tool) return { ok: false, skip: true, reason: `${name || "the tool"} writes nothing` };
  input.tool = tool;
  return null;
}

type ParseOutcome = ReturnType<ClientSpec["parse"]>;

function parse(cliEvent: string, payload: unknown): ParseOutcome {
  if (!isObj(payload)) return fail("payload is not a JSON object");
  // The plugin names the top session: a sub-agent's (task tool) child session works for it.
  const sessionId = str(payload, "session_id");
  if (!sessionId) return fail("payload has no session_id");
  const wired = EVENTS.find((e) => e.cli === cliEvent);
  const input: HookInput = {
    client: "opencode",
    kind: wired?.kind ?? "other",
    event: wired?.native ?? cliEvent,
    sessionId,
    turnId: null,
    cwd: str(payload, "directory"),
    tool: null,
    prompt: null,
    stopHookActive: false,
    lastAssistantMessage: null,
    source: str(payload, "source"),
  };
  if (input.kind === "prompt") input.prompt = promptText(payload.output);
  if (input.kind === "pre-tool" || input.kind === "post-tool") {
    const skipped = toolPart(input, payload);
    if (skipped) return skipped;
  }
  return { ok: true, input };
}

/**
 * The plugin's answer protocol (its own; opencode has no hook wire format): `{deny}` makes the
 * plugin throw, which opencode hands the model as the tool's error text; `{context}` goes into the
 * session's system prompt (session start, prompt) or after the tool's output (post-tool);
 * `{followUp}` is sent back to the session as a new prompt once it is idle. Silence allows.
 */
function render(kind: HookKind, _event: WiredEvent | null, v: Verdict): Rendered {
  if (kind === "pre-tool" && !v.allow) return { ...SILENT, stdout: json({ deny: v.reason }) };
  if (kind === "stop") return v.block ? { ...SILENT, stdout: json({ followUp: v.reason }) } : SILENT;
  if (v.context && kind !== "session-end") return { ...SILENT, stdout: json({ context: v.context }) };
  return SILENT;
}

export const opencode: ClientSpec<"opencode"> = {
  name: "opencode",
  label: "opencode",
  settingsFile: PLUGIN_FILE,
  wiring: [
    { file: PLUGIN_FILE, what: "opencode's Tandem plugin" },
    // Any plugin there runs in the same hooks and could change a tool's arguments after Tandem's check.
    { file: ".opencode/plugins", what: "opencode's project plugins", dir: true },
    { file: ".opencode/plugin", what: "opencode's project plugins", dir: true },
    { file: "opencode.json", what: "opencode's project config" },
    { file: "opencode.jsonc", what: "opencode's project config" },
    { file: ".opencode/opencode.json", what: "opencode's project config" },
    { file: ".opencode/opencode.jsonc", what: "opencode's project config" },
  ],
  layout: "files",
  hookFiles: (launcher, person) => [
    { path: PLUGIN_FILE, text: pluginText(launcher, EVENTS, person), executable: false },
  ],
  events: EVENTS,
  // Set in the agent's shell by Tandem's plugin (`shell.env`), naming the top session.
  sessionEnv: ["OPENCODE_SESSION_ID"],
  givesProjectDir: false,
  processName: "opencode",
  // The TUI and `opencode run` host their server, plugins and shells in one process.
  ui: { kind: "agent", daemonArgs: ["serve"], notUi: ["serve"] },
  ritual: { form: "follow-up", capsItself: false, statusBox: false, prompt: "reminder" },
  commandRewrite: { via: "plugin", tool: "bash", field: "command", used: false },
  // `--auto` approves what the config does not deny: the child edits its own worktree unattended.
  subagent: { command: "opencode", args: ["run", "--auto"] },
  parse,
  render,
};
