import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ClientName } from "../../src/clients/index.js";
import { FIXTURES, kebab } from "../helpers/fixtures.js";

/**
 * A recorded day of hooks for the differential test: the real clients' recorded payloads, then
 * six generated sessions (two per client) working in one repository turn by turn, interleaved
 * tool call by tool call, so they collide on shared files and shell commands.
 */
/** Any client of the registry (src/clients/index.ts): each has a part in the day. */
export type Client = ClientName;

export interface Hook {
  event: string;
  payload: Record<string, unknown>;
}

/** What an allowed tool call did to the working tree: files written, or a shell command run. */
export type Effect = { files: Record<string, string> } | { sh: string } | null;

export type Step =
  | { kind: "hook"; who: string; hook: Hook }
  | { kind: "tool"; who: string; pre: Hook; post: Hook; effect: Effect }
  /** `by`: run in that agent's process instead of `who`'s (its session is then found by variable only). */
  | { kind: "cli"; who: string; args: string[]; by?: string };

export interface Actor {
  who: string;
  client: Client;
  /** The client's own session id: in payloads, and in its shells' environment. */
  native: string;
}

/** Placeholders of the recorded payloads, replaced by the test's paths. */
export function placeholders(repo: string, base: string): [string, string][] {
  return [
    ["/home/user/repo", repo],
    ["<lab>/cc/proj", repo],
    ["<lab>/cx/proj", repo],
    ["/home/user", join(base, "home")],
    ["<lab>", join(base, "lab")],
    ["<tmp>", join(base, "tmp")],
  ];
}

function replaceDeep(value: unknown, pairs: [string, string][]): unknown {
  if (typeof value === "string") return pairs.reduce((s, [a, b]) => s.split(a).join(b), value);
  if (Array.isArray(value)) return value.map((v) => replaceDeep(v, pairs));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceDeep(v, pairs)]));
  return value;
}

const RANK = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"];

/** `write-PreToolUse-2.json` → its place in the session: event order, then occurrence. */
function rankOf(file: string): number {
  const m = /(?:^|-)([A-Za-z]+)(-2)?\.json$/.exec(file)!;
  const second = m[2] ? 1 : 0;
  // The second tool call comes before the Stop; a second Stop (after a block) after the first.
  const base = RANK.indexOf(m[1]!) * 10;
  return m[1] === "PreToolUse" || m[1] === "PostToolUse" ? base + second * 15 : base + second;
}

/** The recorded payloads of Claude Code and Codex, one session after another, in their order. */
export function recordedSteps(
  repo: string,
  base: string,
  who: Record<"claude-code" | "codex", string>,
): Step[] {
  const pairs = placeholders(repo, base);
  const steps: Step[] = [];
  for (const client of ["claude-code", "codex"] as const) {
    const dir = join(FIXTURES, client);
    const bySession = new Map<string, { rank: number; hook: Hook }[]>();
    const add = (rank: number, hook: Hook) => {
      const id = String(hook.payload.session_id);
      bySession.set(id, [...(bySession.get(id) ?? []), { rank, hook }]);
    };
    for (const file of readdirSync(dir).sort()) {
      if (file.startsWith("hook-")) continue;
      if (file.endsWith(".jsonl")) {
        readFileSync(join(dir, file), "utf8")
          .split("\n")
          .filter(Boolean)
          .forEach((line, i) => {
            const rec = JSON.parse(line) as { event: string; stdin: Record<string, unknown> };
            add(i, { event: kebab(rec.event), payload: replaceDeep(rec.stdin, pairs) as Hook["payload"] });
          });
      } else if (file.endsWith(".json")) {
        const payload = replaceDeep(
          JSON.parse(readFileSync(join(dir, file), "utf8")),
          pairs,
        ) as Hook["payload"];
        add(rankOf(file), { event: kebab(String(payload.hook_event_name)), payload });
      }
    }
    for (const calls of bySession.values())
      for (const c of calls.sort((a, b) => a.rank - b.rank))
        steps.push({ kind: "hook", who: who[client], hook: c.hook });
  }
  return steps;
}

/** Gemini's events in a session's order; tool pairs and model calls by occurrence. */
const GEMINI_RANK: Record<string, number> = {
  SessionStart: 0,
  BeforeAgent: 10,
  PreCompress: 20,
  BeforeModel: 21,
  BeforeToolSelection: 22,
  AfterModel: 23,
  BeforeTool: 100,
  AfterTool: 101,
  AfterAgent: 300,
  SessionEnd: 400,
};

/**
 * Gemini CLI's recorded payloads (test/fixtures/gemini-cli: `{event, env, stdin}` captures), one
 * session after another, then a `tandem task` for session `native` run from `by`'s process: only
 * its GEMINI_SESSION_ID names the session, so a thin client that dropped it would differ.
 */
export function geminiRecordedSteps(
  repo: string,
  base: string,
  who: string,
  native: string,
  by: string,
): Step[] {
  const pairs = placeholders(repo, base);
  const dir = join(FIXTURES, "gemini-cli");
  const bySession = new Map<string, { rank: number; hook: Hook }[]>();
  // Recordings only: the folder also holds its README.
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const rec = JSON.parse(readFileSync(join(dir, file), "utf8")) as { event: string; stdin: unknown };
    const payload = replaceDeep(rec.stdin, pairs) as Hook["payload"];
    const n = Number(/-(\d+)\.json$/.exec(file)?.[1] ?? 0);
    const rank = (GEMINI_RANK[rec.event] ?? 50) + (rec.event.endsWith("Tool") ? n * 10 : n);
    const id = String(payload.session_id);
    bySession.set(id, [...(bySession.get(id) ?? []), { rank, hook: { event: kebab(rec.event), payload } }]);
  }
  const steps: Step[] = [];
  for (const calls of bySession.values())
    for (const c of calls.sort((a, b) => a.rank - b.rank)) steps.push({ kind: "hook", who, hook: c.hook });
  steps.push({ kind: "cli", who, args: ["task", `gemini ${native.slice(0, 8)}: recorded day`], by });
  return steps;
}

/**
 * Qwen Code's recordings (test/fixtures/qwen-code) as one recorded session per scenario, in the order
 * Qwen sent them: each payload carries its ISO `timestamp`. The calls are replayed as hooks alone,
 * without the runs' file changes: both paths see the same repository either way.
 */
export function qwenRecordedSteps(repo: string, base: string, who: string, by: string): Step[] {
  const pairs = placeholders(repo, base);
  const dir = join(FIXTURES, "qwen-code");
  const hooks = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as { event: string; stdin: unknown })
    .map((rec) => ({ event: kebab(rec.event), payload: replaceDeep(rec.stdin, pairs) as Hook["payload"] }))
    .sort((a, b) => String(a.payload.timestamp).localeCompare(String(b.payload.timestamp)));
  const steps: Step[] = hooks.map((hook) => ({ kind: "hook", who, hook }));
  steps.push({ kind: "cli", who, args: ["task", "qwen: recorded day"], by });
  return steps;
}

/**
 * Cline CLI's recordings (test/fixtures/cline: `{event, stdin}` captures of its hook files), in the
 * order Cline sent them (each payload's ISO `timestamp`): three sessions, one with a sub-agent whose
 * TaskStart and TaskComplete are skipped. Hooks alone, as for Qwen, then a `tandem task` run in the
 * agent's own process: no variable names a Cline session, so it is found by ancestry.
 */
export function clineRecordedSteps(repo: string, base: string, who: string): Step[] {
  const pairs = placeholders(repo, base);
  const dir = join(FIXTURES, "cline");
  const hooks = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as { event: string; stdin: unknown })
    .map((rec) => ({ event: kebab(rec.event), payload: replaceDeep(rec.stdin, pairs) as Hook["payload"] }))
    .sort((a, b) => String(a.payload.timestamp).localeCompare(String(b.payload.timestamp)));
  const steps: Step[] = hooks.map((hook) => ({ kind: "hook", who, hook }));
  steps.push({ kind: "cli", who, args: ["task", "cline: recorded day"] });
  return steps;
}

export const ACTORS: Actor[] = [
  { who: "C1", client: "claude-code", native: "c1a00000-0000-4000-8000-000000000001" },
  { who: "X1", client: "codex", native: "01a30000-0000-7000-8000-000000000001" },
  { who: "U1", client: "cursor", native: "cu500000-0000-4000-8000-000000000001" },
  { who: "C2", client: "claude-code", native: "c1a00000-0000-4000-8000-000000000002" },
  { who: "X2", client: "codex", native: "01a30000-0000-7000-8000-000000000002" },
  { who: "U2", client: "cursor", native: "cu500000-0000-4000-8000-000000000002" },
];

/** The files every generated session shares: edits of them collide. */
export const SHARED = ["shared/s0.txt", "shared/s1.txt", "shared/s2.txt"];

type Tool =
  | { kind: "write"; path: string; content: string }
  | { kind: "edit"; path: string; line: string }
  | { kind: "sh"; command: string; readOnly: boolean };

/** One client's payloads for one turn of one session. */
class Payloads {
  constructor(
    private readonly a: Actor,
    private readonly repo: string,
    private readonly turn: number,
  ) {}

  private base(event: string): Record<string, unknown> {
    const { a, repo, turn } = this;
    if (a.client === "cursor")
      return {
        conversation_id: a.native,
        generation_id: `gen-${a.who}-${turn}`,
        hook_event_name: event,
        workspace_roots: [repo],
        cursor_version: "2.0.77",
        model: "auto",
      };
    const codex = a.client === "codex";
    return {
      session_id: a.native,
      ...(codex ? { turn_id: `turn-${a.who}-${turn}` } : {}),
      transcript_path: `/tmp/transcripts/${a.native}.jsonl`,
      cwd: repo,
      hook_event_name: event,
      ...(codex ? { model: "gpt-5.5" } : {}),
      permission_mode: codex ? "bypassPermissions" : "default",
    };
  }

  start(): Hook {
    if (this.a.client === "cursor")
      return { event: "session-start", payload: { ...this.base("sessionStart"), session_id: this.a.native } };
    return { event: "session-start", payload: { ...this.base("SessionStart"), source: "startup" } };
  }

  prompt(text: string): Hook {
    if (this.a.client === "cursor")
      return { event: "before-submit-prompt", payload: { ...this.base("beforeSubmitPrompt"), prompt: text } };
    return { event: "user-prompt-submit", payload: { ...this.base("UserPromptSubmit"), prompt: text } };
  }

  stop(message: string, again: boolean): Hook {
    if (this.a.client === "cursor")
      return {
        event: "stop",
        payload: { ...this.base("stop"), status: "completed", loop_count: again ? 1 : 0 },
      };
    const payload = { ...this.base("Stop"), stop_hook_active: again, last_assistant_message: message };
    return { event: "stop", payload };
  }

  end(): Hook {
    if (this.a.client === "cursor")
      return {
        event: "session-end",
        payload: { ...this.base("sessionEnd"), session_id: this.a.native, reason: "user_close" },
      };
    return { event: "session-end", payload: { ...this.base("SessionEnd"), reason: "exit" } };
  }

  /** The pre- and post-tool payloads of `tool` as this client sends them. */
  tool(tool: Tool, n: number): { pre: Hook; post: Hook } {
    const id = `${this.a.client === "codex" ? "call" : "toolu"}_${this.a.who}_${this.turn}_${n}`;
    if (this.a.client === "cursor" && tool.kind === "sh" && !tool.readOnly) {
      const shell = { ...this.base("beforeShellExecution"), command: tool.command, cwd: this.repo };
      return {
        pre: { event: "before-shell-execution", payload: shell },
        post: {
          event: "after-shell-execution",
          payload: { ...shell, hook_event_name: "afterShellExecution", output: "" },
        },
      };
    }
    const [name, input] = this.toolInput(tool);
    const pre = { ...this.base(this.a.client === "cursor" ? "preToolUse" : "PreToolUse") };
    Object.assign(pre, { tool_name: name, tool_input: input, tool_use_id: id });
    if (this.a.client === "cursor") Object.assign(pre, { cwd: this.repo });
    const post =
      this.a.client === "cursor"
        ? { ...pre, hook_event_name: "postToolUse", tool_output: "ok" }
        : { ...pre, hook_event_name: "PostToolUse", tool_response: this.a.client === "codex" ? "ok" : {} };
    return { pre: { event: "pre-tool-use", payload: pre }, post: { event: "post-tool-use", payload: post } };
  }

  private toolInput(tool: Tool): [string, unknown] {
    const abs = tool.kind === "sh" ? "" : join(this.repo, tool.path);
    const { client } = this.a;
    if (tool.kind === "sh") return [client === "cursor" ? "Shell" : "Bash", { command: tool.command }];
    if (client === "codex") {
      const body =
        tool.kind === "write"
          ? `*** Add File: ${tool.path}\n+${tool.content.trimEnd()}`
          : `*** Update File: ${tool.path}\n@@\n+${tool.line}`;
      return ["apply_patch", { command: `*** Begin Patch\n${body}\n*** End Patch\n` }];
    }
    if (tool.kind === "write") {
      const input = { file_path: abs, content: tool.content };
      // Cursor may send tool_input as a JSON string (docs/clients.md §3.2).
      return ["Write", client === "cursor" && this.turn % 2 ? JSON.stringify(input) : input];
    }
    const edit = { file_path: abs, old_string: "", new_string: `${tool.line}\n` };
    return [client === "cursor" ? "StrReplace" : "Edit", edit];
  }
}

function effectOf(tool: Tool): Effect {
  if (tool.kind === "write") return { files: { [tool.path]: tool.content } };
  if (tool.kind === "edit") return { sh: `printf '%s\\n' '${tool.line}' >> ${tool.path}` };
  return { sh: tool.command };
}

const READ_ONLY = [
  "git status --short",
  "cat README.md",
  "ls -R work | head -n 20",
  "git log --oneline -n 3",
];

/** Session `i`'s steps in turn `turn` (the session's start before its first). */
function turnSteps(a: Actor, i: number, turn: number, turns: number, repo: string): Step[] {
  const p = new Payloads(a, repo, turn);
  const steps: Step[] = [];
  const hook = (h: Hook): Step => ({ kind: "hook", who: a.who, hook: h });
  const tools: Tool[] = [
    { kind: "write", path: `work/${a.who}/t${turn}.txt`, content: `${a.who} turn ${turn}\n` },
    { kind: "edit", path: SHARED[(i + turn) % SHARED.length]!, line: `${a.who} ${turn}` },
    { kind: "sh", command: `printf '%s\\n' ${a.who} >> shared/log${(i + turn) % 2}.txt`, readOnly: false },
    { kind: "sh", command: READ_ONLY[(i + turn) % READ_ONLY.length]!, readOnly: true },
  ];
  if (turn % 2 === 1 || turn === turns - 1)
    tools.push({
      kind: "sh",
      command: `git add work/${a.who} && git commit -q -m '${a.who} turn ${turn}'`,
      readOnly: false,
    });
  // A session that throws away a shared file's changes: refused while another session holds it.
  if (turn === 1 && a.client === "codex")
    tools.push({ kind: "sh", command: "git checkout -- shared", readOnly: false });
  if (turn === 0) steps.push(hook(p.start()));
  steps.push(hook(p.prompt(`turn ${turn}: work on ${a.who}`)));
  tools.forEach((tool, n) => {
    steps.push({ kind: "tool", who: a.who, ...p.tool(tool, n), effect: effectOf(tool) });
  });
  // The commands agents run every turn, answered by the server too; some turns skip them.
  const last = turn === turns - 1;
  const ritual = (i + turn) % 2 === 0;
  if (last && i === 2) steps.push({ kind: "cli", who: a.who, args: ["release", "shared"] });
  if (ritual) {
    steps.push({ kind: "cli", who: a.who, args: ["task", `${a.who}: turn ${turn}`] });
    steps.push({ kind: "cli", who: a.who, args: last ? ["status", "--end-turn"] : ["status"] });
  }
  steps.push(hook(p.stop(ritual ? "Done.\n\nTandem status box" : "Done.", false)));
  if (last) {
    steps.push(hook(p.stop("Done again.", true)));
    if (i !== 1) steps.push(hook(p.end()));
  }
  return steps;
}

/** The turns of sessions `actors`, interleaved step by step across them. */
export function generatedSteps(repo: string, actors: Actor[], turns: number): Step[] {
  const out: Step[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const lanes = actors.map((a, i) => turnSteps(a, i, turn, turns, repo));
    const longest = Math.max(...lanes.map((l) => l.length));
    for (let j = 0; j < longest; j++) for (const lane of lanes) if (lane[j]) out.push(lane[j]!);
  }
  return out;
}

/**
 * opencode's recorded plugin calls (test/fixtures/opencode: `{event, env, stdin}` captures, named in
 * the run's order), then a `tandem task` run from `by`'s process for the recorded session: only its
 * OPENCODE_SESSION_ID names it, so a thin client that dropped the variable would differ. The
 * session ends last.
 */
export function opencodeRecordedSteps(repo: string, base: string, who: string, by: string): Step[] {
  const pairs = placeholders(repo, base);
  const dir = join(FIXTURES, "opencode");
  const recs = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as { event: string; stdin: unknown })
    .map((r) => ({ event: r.event, payload: replaceDeep(r.stdin, pairs) as Hook["payload"] }));
  const hooks = (list: typeof recs): Step[] => list.map((hook) => ({ kind: "hook", who, hook }));
  const native = String(recs[0]!.payload.session_id);
  return [
    ...hooks(recs.filter((r) => r.event !== "session-end")),
    { kind: "cli", who, args: ["task", `opencode ${native.slice(4, 12)}: recorded day`], by },
    ...hooks(recs.filter((r) => r.event === "session-end")),
  ];
}

/**
 * Copilot CLI's native-format recordings (test/fixtures/copilot-cli: `{event, stdin}` captures), in
 * the order Copilot sent them (each payload's `timestamp`, in ms): three sessions, one with an
 * apply_patch edit. Hooks alone, as for Qwen, then a `tandem task` run in the agent's own process
 * before the session ends: no variable names a Copilot session, so it is found by ancestry.
 */
export function copilotRecordedSteps(repo: string, base: string, who: string): Step[] {
  const pairs = placeholders(repo, base);
  const dir = join(FIXTURES, "copilot-cli");
  const hooks = readdirSync(dir)
    // The Claude-format payloads are the same client through another settings file: one format is a day.
    .filter((f) => f.endsWith(".json") && !f.startsWith("claude-format-"))
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as { event: string; stdin: unknown })
    .map((rec) => ({ event: kebab(rec.event), payload: replaceDeep(rec.stdin, pairs) as Hook["payload"] }))
    .sort((a, b) => Number(a.payload.timestamp) - Number(b.payload.timestamp));
  const step = (hook: Hook): Step => ({ kind: "hook", who, hook });
  return [
    ...hooks.filter((h) => h.event !== "session-end").map(step),
    { kind: "cli", who, args: ["task", "copilot: recorded day"] },
    ...hooks.filter((h) => h.event === "session-end").map(step),
  ];
}
