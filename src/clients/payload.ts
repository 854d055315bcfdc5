import type { HookInput, HookKind, ParseResult, Rendered, Verdict, WiredEvent } from "./types.js";

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function str(o: Obj, key: string): string | null {
  const v = o[key];
  return typeof v === "string" ? v : null;
}

/** `tool_input` may arrive as a JSON string (Cursor); decode it, keep anything else as is. */
export function decodeToolInput(v: unknown): unknown {
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

export function fail(error: string): ParseResult {
  return { ok: false, skip: false, error };
}

/** Builds the normalized input from the fields every client shares. */
export function baseInput(
  client: string,
  kind: HookKind,
  event: string,
  sessionId: string,
  p: Obj,
): HookInput {
  return {
    client,
    kind,
    event,
    sessionId,
    turnId: null,
    cwd: str(p, "cwd"),
    tool: null,
    prompt: null,
    stopHookActive: p.stop_hook_active === true,
    lastAssistantMessage: str(p, "last_assistant_message"),
    source: str(p, "source"),
  };
}

/**
 * What a finished tool printed, as far as the payload says: `tool_response` as text (Codex) or its
 * `stdout`/`stderr`/`output` (Claude Code's Bash), and a failure's `error`. Null when none.
 */
export function toolOutput(p: Obj): string | null {
  const r = p.tool_response;
  const parts: unknown[] = typeof r === "string" ? [r] : isObj(r) ? [r.stdout, r.stderr, r.output] : [];
  parts.push(p.error);
  const text = parts.filter((t): t is string => typeof t === "string" && t !== "").join("\n");
  return text === "" ? null : text;
}

export function toolFrom(p: Obj, nameKey = "tool_name"): HookInput["tool"] {
  const name = str(p, nameKey);
  if (!name) return null;
  const output = toolOutput(p);
  return {
    name,
    input: decodeToolInput(p.tool_input),
    useId: str(p, "tool_use_id"),
    ...(output === null ? {} : { output }),
  };
}

export function json(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

export const SILENT: Rendered = { exitCode: 0, stdout: "", stderr: "" };

/**
 * The answers Claude Code and Codex share (their `hookSpecificOutput` wire shape):
 * a PreToolUse deny, and context for session start, prompts and post-tool use.
 * Everything else is silence; Stop is each client's own business.
 */
export function nestedAnswer(kind: HookKind, event: WiredEvent | null, v: Verdict): Rendered {
  if (kind === "pre-tool" && !v.allow) {
    const deny = {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: v.reason,
    };
    return { ...SILENT, stdout: json({ hookSpecificOutput: deny }) };
  }
  // A command sent through the jail: the same call, with new input (Claude Code applies
  // `updatedInput` without a permission decision, so its own permission rules still ask).
  if (kind === "pre-tool" && v.updatedInput) {
    const out = { hookEventName: "PreToolUse", updatedInput: v.updatedInput, additionalContext: v.context };
    return { ...SILENT, stdout: json({ hookSpecificOutput: out }) };
  }
  if (
    v.context &&
    (kind === "session-start" || kind === "prompt" || kind === "post-tool" || kind === "pre-tool")
  ) {
    return {
      ...SILENT,
      stdout: json({ hookSpecificOutput: { hookEventName: event?.native, additionalContext: v.context } }),
    };
  }
  return SILENT;
}
