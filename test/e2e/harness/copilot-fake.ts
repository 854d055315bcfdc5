import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { closeServer, listenLocal, readBody } from "./http.js";

/**
 * A scripted OpenAI Chat Completions server for Copilot CLI, which speaks that API (not Responses)
 * to a BYOK provider by default. Copilot asks with `stream: true` and reads standard chunks.
 */

/** A function tool call (`create`, `edit`, `bash`…), a freeform patch (gpt-5 models), or a final text. */
export type CopilotReply =
  | { call: string; args: Record<string, unknown> }
  | { patch: string }
  | { text: string };

export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: unknown[];
  tool_call_id?: string;
}

export interface ChatRequest {
  body: { model?: string; messages?: ChatMessage[]; tools?: Record<string, unknown>[] };
  /** `role: "tool"` messages: the index of the scripted step. */
  toolResults: number;
  /** Every message's text, joined: for matching and asserts. */
  text: string;
  /** The text of the newest tool message (what the last tool returned, or the hook's denial). */
  lastToolResult: string;
  /** Names of the tools offered (function and custom). */
  tools: string[];
  /** A request offering no agent tools (titles, summaries): answered with plain text. */
  auxiliary: boolean;
  reply?: CopilotReply;
}

/** A function step may return a promise: the reply, and so the client's turn, waits for it (see gate.ts). */
export type CopilotStep = CopilotReply | ((req: ChatRequest) => CopilotReply | Promise<CopilotReply>);

export interface CopilotFake {
  /** `COPILOT_PROVIDER_BASE_URL` (ends in `/v1`). */
  readonly url: string;
  readonly requests: ChatRequest[];
  /** Step functions that threw; a test should expect this to stay empty. */
  readonly errors: string[];
  /** A script for the requests `match` accepts (the first script without `match` takes the rest). */
  script(steps: CopilotStep[], match?: (req: ChatRequest) => boolean): void;
  close(): Promise<void>;
}

interface Script {
  steps: CopilotStep[];
  match: ((req: ChatRequest) => boolean) | undefined;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((c) => (c as { text?: unknown }).text ?? "").join("");
  return "";
}

function parseRequest(body: ChatRequest["body"]): ChatRequest {
  const messages = body.messages ?? [];
  const results = messages.filter((m) => m.role === "tool");
  const tools = (body.tools ?? []).map((t) => {
    const fn = t.function as { name?: string } | undefined;
    const custom = t.custom as { name?: string } | undefined;
    return String(fn?.name ?? custom?.name ?? t.name ?? "");
  });
  return {
    body,
    toolResults: results.length,
    text: messages.map((m) => textOf(m.content)).join("\n"),
    lastToolResult: textOf(results[results.length - 1]?.content),
    tools,
    auxiliary: tools.length <= 3,
  };
}

async function pick(scripts: Script[], req: ChatRequest, errors: string[]): Promise<CopilotReply> {
  const script = scripts.find((s) => s.match?.(req)) ?? scripts.find((s) => s.match === undefined);
  const step = script?.steps[req.toolResults];
  if (step === undefined) return { text: "(fake model: script exhausted)" };
  try {
    return typeof step === "function" ? await step(req) : step;
  } catch (e) {
    errors.push(`step ${req.toolResults} threw: ${String(e)}`);
    return { text: `(fake model: step failed: ${String(e)})` };
  }
}

function delta(reply: CopilotReply, n: number): Record<string, unknown> {
  if ("text" in reply) return { role: "assistant", content: reply.text };
  const call =
    "patch" in reply
      ? { type: "custom", custom: { name: "apply_patch", input: reply.patch } }
      : { type: "function", function: { name: reply.call, arguments: JSON.stringify(reply.args) } };
  return { role: "assistant", content: null, tool_calls: [{ index: 0, id: `call_fake_${n}`, ...call }] };
}

function send(res: ServerResponse, reply: CopilotReply, n: number, model: string): void {
  const base = { id: `chatcmpl-fake-${n}`, object: "chat.completion.chunk", created: 0, model };
  const finish = "text" in reply ? "stop" : "tool_calls";
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  const frames = [
    { ...base, choices: [{ index: 0, delta: delta(reply, n), finish_reason: null }] },
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }], usage },
  ];
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.end(`${frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join("")}data: [DONE]\n\n`);
}

/** Starts the fake on 127.0.0.1 (random port). */
export async function startCopilotFake(): Promise<CopilotFake> {
  const scripts: Script[] = [];
  const requests: ChatRequest[] = [];
  const errors: string[] = [];
  let n = 0;
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    if (req.method !== "POST" || !(req.url ?? "").startsWith("/v1/chat/completions")) {
      res.writeHead(404).end();
      return;
    }
    const parsed = parseRequest(JSON.parse(raw) as ChatRequest["body"]);
    requests.push(parsed);
    parsed.reply = parsed.auxiliary ? { text: "Fake title" } : await pick(scripts, parsed, errors);
    n += 1;
    send(res, parsed.reply, n, parsed.body.model ?? "gpt-4.1");
  }
  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      errors.push(String(e));
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  const base = await listenLocal(server);
  return {
    url: `${base}/v1`,
    requests,
    errors,
    script: (steps, match) => {
      scripts.push({ steps, match });
    },
    close: () => closeServer(server),
  };
}
