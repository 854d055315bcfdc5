import { baseInput, fail, isObj, json, type Obj, str, toolFrom } from "../payload.js";
import type { ClientSpec, HookKind, Rendered, Verdict, WiredEvent } from "../types.js";

const SETTINGS = ".cursor/hooks.json";

const EVENTS: WiredEvent[] = [
  { native: "sessionStart", cli: "session-start", kind: "session-start" },
  { native: "beforeSubmitPrompt", cli: "before-submit-prompt", kind: "prompt" },
  { native: "preToolUse", cli: "pre-tool-use", kind: "pre-tool" },
  { native: "beforeShellExecution", cli: "before-shell-execution", kind: "pre-tool" },
  { native: "postToolUse", cli: "post-tool-use", kind: "post-tool" },
  { native: "afterShellExecution", cli: "after-shell-execution", kind: "post-tool" },
  { native: "stop", cli: "stop", kind: "stop" },
  { native: "sessionEnd", cli: "session-end", kind: "session-end" },
];

/** Cloud agents prefix ids with `bc-`; one conversation keeps one id. */
function conversationId(p: Obj): string | null {
  const id = str(p, "conversation_id") ?? str(p, "session_id");
  return id?.startsWith("bc-") ? id.slice(3) : id;
}

function cwdOf(p: Obj): string | null {
  const roots = p.workspace_roots;
  const first = Array.isArray(roots) && typeof roots[0] === "string" ? roots[0] : null;
  return str(p, "cwd") ?? first;
}

function render(kind: HookKind, event: WiredEvent | null, v: Verdict): Rendered {
  const out = (value: unknown): Rendered => ({ exitCode: 0, stdout: json(value), stderr: "" });
  if (kind === "pre-tool") {
    return v.allow
      ? out(v.context ? { permission: "allow", agent_message: v.context } : { permission: "allow" })
      : out({ permission: "deny", user_message: v.reason, agent_message: v.reason });
  }
  // Cursor's stop cannot block; a followup message opens a new turn instead (docs/clients.md §3.3).
  if (kind === "stop") return out(v.block && v.reason ? { followup_message: v.reason } : {});
  if (kind === "session-start" && v.context) return out({ additional_context: v.context });
  if (event?.native === "beforeSubmitPrompt") return out({ continue: true });
  return { exitCode: 0, stdout: "", stderr: "" };
}

export const cursor: ClientSpec<"cursor"> = {
  name: "cursor",
  label: "Cursor",
  settingsFile: SETTINGS,
  wiring: [{ file: SETTINGS, what: "Cursor's hooks" }],
  layout: "flat",
  events: EVENTS,
  sessionEnv: [],
  givesProjectDir: false,
  processName: "cursor",
  // The process found by name (the editor's, or `cursor-agent`) is what the person runs.
  ui: { kind: "agent", daemonArgs: [], notUi: [] },
  // Cursor submits a blocked Stop's reason as a new prompt and caps the loop itself (loop_limit).
  ritual: { form: "follow-up", capsItself: true, statusBox: false, prompt: "reminder" },
  commandRewrite: { via: "unconfirmed", tool: "Shell", field: "command", used: false },
  subagent: { command: "cursor-agent", args: ["-p", "--force"] },
  parse(cliEvent, payload) {
    if (!isObj(payload)) return fail("payload is not a JSON object");
    const sessionId = conversationId(payload);
    if (!sessionId) return fail("payload has no conversation_id");
    const wired = EVENTS.find((e) => e.cli === cliEvent);
    const input = baseInput("cursor", wired?.kind ?? "other", wired?.native ?? cliEvent, sessionId, payload);
    input.cwd = cwdOf(payload);
    input.turnId = str(payload, "generation_id");
    input.prompt = str(payload, "prompt");
    // beforeShellExecution carries the command at top level: treat it as a Shell tool call.
    input.tool =
      wired?.native === "beforeShellExecution" || wired?.native === "afterShellExecution"
        ? { name: "Shell", input: { command: str(payload, "command") ?? "" }, useId: null }
        : toolFrom(payload);
    return { ok: true, input };
  },
  render,
};
