import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { closeServer, listenLocal, readBody, sendJson, sendSse } from "./http.js";

/** What the fake model answers: one tool call (`stop_reason: tool_use`) or a final text (`end_turn`). */
export type ClaudeReply = { tool: string; input: Record<string, unknown> } | { text: string };

export interface MessagesBody {
  model?: string;
  messages?: { role: string; content: unknown }[];
  tools?: { name?: string }[];
  [key: string]: unknown;
}

export interface MessagesRequest {
  /** `x-claude-code-session-id`: equals the hook payloads' `session_id`. */
  sessionId: string | undefined;
  headers: IncomingHttpHeaders;
  body: MessagesBody;
  /** `tool_result` blocks in `messages`: the index of the scripted step this request gets. */
  toolResults: number;
  /** Every text in `messages` (user, assistant and tool results), joined: for matching and asserts. */
  text: string;
  /** A request without the Write tool (e.g. a title request): answered with plain text, no script. */
  auxiliary: boolean;
  /** Filled in once answered. */
  reply?: ClaudeReply;
}

export type ClaudeStep = ClaudeReply | ((req: MessagesRequest) => ClaudeReply);

export interface ScriptSelector {
  /** Only for this `x-claude-code-session-id` (pass the same id to `claude --session-id`). */
  session?: string;
  /** Only for requests this accepts, e.g. `(r) => r.text.includes("agent A")`. */
  match?: (req: MessagesRequest) => boolean;
}

export interface AnthropicFake {
  /** For `ANTHROPIC_BASE_URL`. */
  readonly url: string;
  /** Every `POST /v1/messages` in arrival order. */
  readonly requests: MessagesRequest[];
  /** Step functions that threw; a test should expect this to stay empty. */
  readonly errors: string[];
  /**
   * Adds a script. Lookup order per request: a script for its session, then the first whose `match`
   * accepts it, then the script added without a selector. Step = number of tool results so far.
   */
  script(steps: ClaudeStep[], selector?: ScriptSelector): void;
  requestsFor(sessionId: string): MessagesRequest[];
  close(): Promise<void>;
}

interface Script {
  steps: ClaudeStep[];
  selector: ScriptSelector;
}

const EXHAUSTED: ClaudeReply = { text: "(fake model: script exhausted)" };

/** Starts a scripted Anthropic Messages server on 127.0.0.1 (random port). */
export async function startAnthropicFake(): Promise<AnthropicFake> {
  const scripts: Script[] = [];
  const requests: MessagesRequest[] = [];
  const errors: string[] = [];
  let ids = 0;
  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      errors.push(String(e));
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "HEAD" || req.method === "GET") {
      // Claude's connectivity check.
      res.writeHead(200).end();
      return;
    }
    const raw = await readBody(req);
    if (path === "/v1/messages/count_tokens") {
      sendJson(res, { input_tokens: 10 });
    } else if (req.method === "POST" && path === "/v1/messages") {
      const parsed = parseRequest(req.headers, JSON.parse(raw) as MessagesBody);
      requests.push(parsed);
      parsed.reply = parsed.auxiliary ? { text: "Fake title" } : pickReply(scripts, parsed, errors);
      ids += 1;
      sendSse(res, messageFrames(parsed.body.model ?? "claude-fake", parsed.reply, ids));
    } else {
      res.writeHead(404).end();
    }
  }

  const url = await listenLocal(server);
  return {
    url,
    requests,
    errors,
    script: (steps, selector = {}) => {
      scripts.push({ steps, selector });
    },
    requestsFor: (sessionId) => requests.filter((r) => r.sessionId === sessionId),
    close: () => closeServer(server),
  };
}

function parseRequest(headers: IncomingHttpHeaders, body: MessagesBody): MessagesRequest {
  const header = headers["x-claude-code-session-id"];
  const messages = body.messages ?? [];
  let toolResults = 0;
  const texts: string[] = [];
  for (const m of messages) {
    for (const block of blocks(m.content)) {
      if (block.type === "tool_result") toolResults += 1;
      texts.push(...blockTexts(block));
    }
  }
  return {
    sessionId: typeof header === "string" ? header : undefined,
    headers,
    body,
    toolResults,
    text: texts.join("\n"),
    auxiliary: !(body.tools ?? []).some((t) => t.name === "Write"),
  };
}

type Block = { type?: string; text?: unknown; content?: unknown };

function blocks(content: unknown): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? (content as Block[]) : [];
}

function blockTexts(block: Block): string[] {
  if (typeof block.text === "string") return [block.text];
  if (block.type === "tool_result") return blocks(block.content).flatMap(blockTexts);
  return [];
}

function pickReply(scripts: Script[], req: MessagesRequest, errors: string[]): ClaudeReply {
  const script =
    scripts.find((s) => s.selector.session !== undefined && s.selector.session === req.sessionId) ??
    scripts.find((s) => s.selector.session === undefined && s.selector.match?.(req)) ??
    scripts.find((s) => s.selector.session === undefined && s.selector.match === undefined);
  const step = script?.steps[req.toolResults];
  if (step === undefined) return EXHAUSTED;
  try {
    return typeof step === "function" ? step(req) : step;
  } catch (e) {
    errors.push(`step ${req.toolResults} threw: ${String(e)}`);
    return { text: `(fake model: step failed: ${String(e)})` };
  }
}

/** The six SSE frames of one streamed message (sent with `event:` lines: without them Claude retries). */
function messageFrames(model: string, reply: ClaudeReply, n: number): [string, unknown][] {
  const isTool = "tool" in reply;
  const block = isTool
    ? { type: "tool_use", id: `toolu_fake_${n}`, name: reply.tool, input: {} }
    : { type: "text", text: "" };
  const delta = isTool
    ? { type: "input_json_delta", partial_json: JSON.stringify(reply.input) }
    : { type: "text_delta", text: reply.text };
  const frames: [string, unknown][] = [
    [
      "message_start",
      {
        type: "message_start",
        message: {
          id: `msg_fake_${n}`,
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 1 },
        },
      },
    ],
    ["content_block_start", { type: "content_block_start", index: 0, content_block: block }],
    ["content_block_delta", { type: "content_block_delta", index: 0, delta }],
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    [
      "message_delta",
      {
        type: "message_delta",
        delta: { stop_reason: isTool ? "tool_use" : "end_turn", stop_sequence: null },
        usage: { output_tokens: 5 },
      },
    ],
    ["message_stop", { type: "message_stop" }],
  ];
  return frames;
}
