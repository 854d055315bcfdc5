import { baseInput, fail, isObj, nestedAnswer, SILENT, str, toolFrom } from "../payload.js";
import type { ClientSpec, HookKind, Rendered, Verdict, WiredEvent } from "../types.js";
import { CODEX_CONFIG, CODEX_USER_CONFIG, codexHooksOn } from "./hooks-switch.js";

const SETTINGS = ".codex/hooks.json";

/**
 * `statusMessage` names each entry in Codex's `/hooks` review; SessionEnd's timeout stays within
 * the 3 s Codex clamps it to (with a warning on every start when more is asked).
 */
const EVENTS: WiredEvent[] = [
  {
    native: "SessionStart",
    cli: "session-start",
    kind: "session-start",
    statusMessage: "Tandem: register this session and list the other agents working here",
  },
  {
    native: "UserPromptSubmit",
    cli: "user-prompt-submit",
    kind: "prompt",
    statusMessage: "Tandem: tell the agent what changed among the other agents",
  },
  {
    native: "PreToolUse",
    cli: "pre-tool-use",
    kind: "pre-tool",
    statusMessage: "Tandem: claim the files this tool call edits, or refuse if another agent holds them",
  },
  {
    native: "PostToolUse",
    cli: "post-tool-use",
    kind: "post-tool",
    statusMessage: "Tandem: record which files the tool call changed",
  },
  { native: "Stop", cli: "stop", kind: "stop", statusMessage: "Tandem: record the end of the turn" },
  {
    native: "SessionEnd",
    cli: "session-end",
    kind: "session-end",
    timeout: 3,
    statusMessage: "Tandem: end this session and release its claimed files",
  },
];

/**
 * Codex drops any output with a field its schema lacks, so only the exact
 * shapes of its embedded schemas are produced here. Stop never blocks: a
 * continuation can replace the answer the user was meant to see (docs/clients.md §2.3),
 * so even a blocking verdict renders as silence.
 */
function render(kind: HookKind, event: WiredEvent | null, v: Verdict): Rendered {
  if (kind === "stop") return SILENT;
  // Codex shows the model "Command blocked by PreToolUse hook: <reason>. Command: <command>":
  // a reason ending in its own period would read "another way.. Command:". The reason is never
  // broken into lines for the terminal: the model reads these bytes (issue 26).
  const denied = kind === "pre-tool" && !v.allow && v.reason !== null;
  const reason = denied ? v.reason!.replace(/[.\s]+$/, "") : v.reason;
  return nestedAnswer(kind, event, { ...v, reason });
}

export const codex: ClientSpec<"codex"> = {
  name: "codex",
  label: "Codex",
  settingsFile: SETTINGS,
  wiring: [
    { file: SETTINGS, what: "Codex's hooks" },
    // `[features] hooks = false` here turns every Codex hook off (docs/clients.md §2.1).
    { file: CODEX_CONFIG, what: "Codex's hook settings" },
    // Any `*.rules` file here can let commands out of Codex's sandbox unasked (docs/clients.md §2.1).
    { file: ".codex/rules", what: "Codex's command rules", dir: true },
  ],
  hookSwitch: {
    file: CODEX_CONFIG,
    switchOn: codexHooksOn,
    user: {
      file: CODEX_USER_CONFIG,
      envDir: "CODEX_HOME",
      fileInEnvDir: "config.toml",
      keys: ["features.hooks"],
    },
  },
  layout: "nested",
  events: EVENTS,
  sessionEnv: ["CODEX_THREAD_ID", "CODEX_SESSION_ID"],
  givesProjectDir: false,
  processName: "codex",
  // Observed (0.171.0): a plain `codex` runs hooks under `codex app-server … --managed-daemon`.
  ui: { kind: "agent", daemonArgs: ["app-server", "--managed-daemon"], notUi: ["app-server", "exec"] },
  // Codex Stop hooks never block: a continuation can replace the answer the user was meant to see.
  ritual: { form: "observed", capsItself: false, statusBox: false, prompt: "footer" },
  commandRewrite: { via: "hook-output", tool: "Bash", field: "command", used: false },
  subagent: { command: "codex", args: ["exec", "--full-auto"] },
  trust: "hook-review",
  parse(cliEvent, payload) {
    if (!isObj(payload)) return fail("payload is not a JSON object");
    const sessionId = str(payload, "session_id");
    if (!sessionId) return fail("payload has no session_id");
    const wired = EVENTS.find((e) => e.cli === cliEvent);
    const input = baseInput("codex", wired?.kind ?? "other", wired?.native ?? cliEvent, sessionId, payload);
    input.turnId = str(payload, "turn_id");
    input.tool = toolFrom(payload);
    input.prompt = str(payload, "prompt");
    return { ok: true, input };
  },
  render,
};
