import { describe, expect, it } from "vitest";
import { CLIENTS } from "../../src/clients/index.js";
import { ALLOW, type HookKind, type Verdict } from "../../src/clients/types.js";
import { codexSchemas, kebab, recordedPayloads } from "../helpers/fixtures.js";

const recorded = recordedPayloads();

describe("client payload parsers", () => {
  it("has recorded payloads for both runnable clients", () => {
    expect(recorded.filter((r) => r.client === "claude-code").length).toBeGreaterThan(20);
    expect(recorded.filter((r) => r.client === "codex").length).toBeGreaterThan(15);
  });

  it.each(recorded.map((r) => [`${r.client} ${r.source}`, r] as const))("parses %s", (_name, r) => {
    const res = CLIENTS[r.client].parse(kebab(r.event), r.payload);
    if (!res.ok) throw new Error(`did not parse: ${JSON.stringify(res)}`);
    expect(res.input.sessionId).toBe(r.payload.session_id);
    expect(res.input.cwd).toBe(r.payload.cwd);
    if (r.payload.tool_name) expect(res.input.tool?.name).toBe(r.payload.tool_name);
    if (r.event === "PreToolUse") expect(res.input.kind).toBe("pre-tool");
  });

  it("maps unknown events to 'other' instead of failing", () => {
    const res = CLIENTS["claude-code"].parse("post-tool-batch", {
      session_id: "s",
      cwd: "/r",
      hook_event_name: "PostToolBatch",
    });
    expect(res).toMatchObject({ ok: true, input: { kind: "other", event: "post-tool-batch" } });
  });

  it("skips a Cursor payload arriving through Claude's hook files", () => {
    expect(CLIENTS["claude-code"].parse("stop", { session_id: "s", cursor_version: "1.7" })).toMatchObject({
      ok: false,
      skip: true,
    });
  });

  it.each([
    ["claude-code", "not an object", "x"],
    ["claude-code", "no session id", { cwd: "/r" }],
    ["codex", "array", [1, 2]],
    ["cursor", "no conversation id", { hook_event_name: "stop" }],
  ] as const)("%s rejects a payload with %s", (client, _what, payload) => {
    expect(CLIENTS[client].parse("stop", payload)).toMatchObject({ ok: false, skip: false });
  });

  it("reads Cursor's conversation id (without bc-), workspace root, and a tool_input sent as a JSON string", () => {
    const res = CLIENTS.cursor.parse("pre-tool-use", {
      conversation_id: "bc-123",
      generation_id: "g1",
      hook_event_name: "preToolUse",
      workspace_roots: ["/w"],
      cursor_version: "2.0",
      tool_name: "Write",
      tool_input: JSON.stringify({ file_path: "/w/a.ts" }),
    });
    expect(res).toMatchObject({
      ok: true,
      input: {
        sessionId: "123",
        cwd: "/w",
        turnId: "g1",
        tool: { name: "Write", input: { file_path: "/w/a.ts" } },
      },
    });
  });

  it("turns Cursor's beforeShellExecution into a Shell tool call", () => {
    const res = CLIENTS.cursor.parse("before-shell-execution", {
      conversation_id: "c",
      command: "rm -rf build",
      cwd: "/w",
    });
    expect(res).toMatchObject({
      ok: true,
      input: { kind: "pre-tool", tool: { name: "Shell", input: { command: "rm -rf build" } } },
    });
  });
});

const DENY: Verdict = { allow: false, rule: "claim-conflict", reason: "held by agent-wren" };
const BLOCK: Verdict = { allow: false, block: true, rule: "status", reason: "run tandem status" };
const CONTEXT: Verdict = { ...ALLOW, context: "you are agent-wren" };

function wired(client: keyof typeof CLIENTS, kind: HookKind) {
  return CLIENTS[client].events.find((e) => e.kind === kind) ?? null;
}

describe("client renderers", () => {
  it("renders a Claude deny as PreToolUse JSON and a Stop block as a JSON block decision, never exit 2", () => {
    const deny = CLIENTS["claude-code"].render("pre-tool", wired("claude-code", "pre-tool"), DENY);
    expect(JSON.parse(deny.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "held by agent-wren",
      },
    });
    const stop = CLIENTS["claude-code"].render("stop", wired("claude-code", "stop"), BLOCK);
    expect(stop).toMatchObject({ exitCode: 0, stderr: "" });
    expect(JSON.parse(stop.stdout)).toEqual({ decision: "block", reason: "run tandem status" });
  });

  it("never lets Codex block a Stop, even when asked to", () => {
    expect(CLIENTS.codex.render("stop", wired("codex", "stop"), BLOCK)).toEqual({
      exitCode: 0,
      stdout: "",
      stderr: "",
    });
  });

  it("renders Cursor's stop block as a followup message and its deny as permission JSON", () => {
    expect(JSON.parse(CLIENTS.cursor.render("stop", wired("cursor", "stop"), BLOCK).stdout)).toEqual({
      followup_message: "run tandem status",
    });
    expect(JSON.parse(CLIENTS.cursor.render("pre-tool", wired("cursor", "pre-tool"), DENY).stdout)).toEqual({
      permission: "deny",
      user_message: "held by agent-wren",
      agent_message: "held by agent-wren",
    });
  });

  it("renders only fields Codex's own output schemas allow", () => {
    const schemas = codexSchemas();
    const cases: [HookKind, Verdict, string][] = [
      ["pre-tool", DENY, "pre-tool-use"],
      ["pre-tool", ALLOW, "pre-tool-use"],
      ["session-start", CONTEXT, "session-start"],
      ["prompt", CONTEXT, "user-prompt-submit"],
      ["post-tool", CONTEXT, "post-tool-use"],
      ["stop", BLOCK, "stop"],
    ];
    for (const [kind, verdict, schemaName] of cases) {
      const out = CLIENTS.codex.render(kind, wired("codex", kind), verdict);
      expect(out.exitCode).toBe(0);
      if (!out.stdout) continue;
      const schema = schemas[`${schemaName}.command.output`]!;
      const body = JSON.parse(out.stdout) as Record<string, Record<string, unknown>>;
      for (const key of Object.keys(body)) expect(Object.keys(schema.properties ?? {})).toContain(key);
      if (body.hookSpecificOutput) {
        const def = Object.entries(schema.definitions ?? {}).find(([name]) =>
          name.endsWith("HookSpecificOutputWire"),
        )![1];
        for (const key of Object.keys(body.hookSpecificOutput))
          expect(Object.keys(def.properties ?? {})).toContain(key);
      }
    }
  });
});
