import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { closeServer, listenLocal, readBody, sendSse } from "./http.js";

/** A raw Responses API output item, for shapes the shorthands below do not cover. */
export type ResponseItem = Record<string, unknown>;

/**
 * What the fake model answers: a shell call (`exec_command`), a patch (`apply_patch` custom tool), a
 * final text (ends the turn), or raw output items (e.g. two calls at once).
 */
export type CodexReply =
  | { exec: string; workdir?: string }
  | { patch: string }
  | { text: string }
  | { items: ResponseItem[] };

export interface ResponsesBody {
  model?: string;
  input?: ResponseItem[];
  tools?: { type?: string; name?: string }[];
  [key: string]: unknown;
}

export interface ResponsesRequest {
  /** `session-id` header: equals the hook payloads' `session_id` and the exec `thread_id`. */
  sessionId: string | undefined;
  headers: IncomingHttpHeaders;
  body: ResponsesBody;
  /** `function_call_output` + `custom_tool_call_output` items: the index of the scripted step. */
  toolOutputs: number;
  /** Every message text and tool output in `input`, joined: for matching and asserts. */
  text: string;
  /** A request that offers no tools: answered with plain text, no script. */
  auxiliary: boolean;
  /** Filled in once answered. */
  reply?: CodexReply;
}

export type CodexStep = CodexReply | ((req: ResponsesRequest) => CodexReply);

export interface ResponsesScriptSelector {
  /** Only for this `session-id` (Codex mints it; usually `match` is easier). */
  session?: string;
  /** Only for requests this accepts, e.g. `(r) => r.text.includes("agent A")`. */
  match?: (req: ResponsesRequest) => boolean;
}

export interface ResponsesFake {
  /** The provider `base_url` (ends in `/v1`). */
  readonly url: string;
  readonly requests: ResponsesRequest[];
  /** Step functions that threw; a test should expect this to stay empty. */
  readonly errors: string[];
  /** Same lookup as the Anthropic fake: session, then `match`, then the script without a selector. */
  script(steps: CodexStep[], selector?: ResponsesScriptSelector): void;
  requestsFor(sessionId: string): ResponsesRequest[];
  close(): Promise<void>;
}

interface Script {
  steps: CodexStep[];
  selector: ResponsesScriptSelector;
}

const EXHAUSTED: CodexReply = { text: "(fake model: script exhausted)" };

/** Starts a scripted OpenAI Responses server on 127.0.0.1 (random port). */
export async function startResponsesFake(): Promise<ResponsesFake> {
  const scripts: Script[] = [];
  const requests: ResponsesRequest[] = [];
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
    const raw = await readBody(req);
    if (req.method !== "POST" || path !== "/v1/responses") {
      res.writeHead(404).end();
      return;
    }
    const parsed = parseRequest(req.headers, JSON.parse(raw) as ResponsesBody);
    requests.push(parsed);
    parsed.reply = parsed.auxiliary ? { text: "Fake title" } : pickReply(scripts, parsed, errors);
    ids += 1;
    sendSse(res, responseFrames(toItems(parsed.reply, ids), ids));
  }

  const base = await listenLocal(server);
  return {
    url: `${base}/v1`,
    requests,
    errors,
    script: (steps, selector = {}) => {
      scripts.push({ steps, selector });
    },
    requestsFor: (sessionId) => requests.filter((r) => r.sessionId === sessionId),
    close: () => closeServer(server),
  };
}

const OUTPUT_TYPES = new Set(["function_call_output", "custom_tool_call_output"]);

function parseRequest(headers: IncomingHttpHeaders, body: ResponsesBody): ResponsesRequest {
  const header = headers["session-id"];
  const input = body.input ?? [];
  const texts: string[] = [];
  for (const item of input) {
    if (OUTPUT_TYPES.has(String(item.type)) && typeof item.output === "string") texts.push(item.output);
    if (Array.isArray(item.content)) {
      for (const part of item.content as { text?: unknown }[]) {
        if (typeof part.text === "string") texts.push(part.text);
      }
    }
  }
  return {
    sessionId: typeof header === "string" ? header : undefined,
    headers,
    body,
    toolOutputs: input.filter((i) => OUTPUT_TYPES.has(String(i.type))).length,
    text: texts.join("\n"),
    auxiliary: (body.tools ?? []).length === 0,
  };
}

function pickReply(scripts: Script[], req: ResponsesRequest, errors: string[]): CodexReply {
  const script =
    scripts.find((s) => s.selector.session !== undefined && s.selector.session === req.sessionId) ??
    scripts.find((s) => s.selector.session === undefined && s.selector.match?.(req)) ??
    scripts.find((s) => s.selector.session === undefined && s.selector.match === undefined);
  const step = script?.steps[req.toolOutputs];
  if (step === undefined) return EXHAUSTED;
  try {
    return typeof step === "function" ? step(req) : step;
  } catch (e) {
    errors.push(`step ${req.toolOutputs} threw: ${String(e)}`);
    return { text: `(fake model: step failed: ${String(e)})` };
  }
}

function toItems(reply: CodexReply, n: number): ResponseItem[] {
  if ("items" in reply) return reply.items;
  if ("exec" in reply) {
    const args =
      reply.workdir === undefined ? { cmd: reply.exec } : { cmd: reply.exec, workdir: reply.workdir };
    return [
      {
        type: "function_call",
        id: `fc_fake_${n}`,
        call_id: `call_fake_${n}`,
        name: "exec_command",
        arguments: JSON.stringify(args),
      },
    ];
  }
  if ("patch" in reply) {
    return [
      {
        type: "custom_tool_call",
        id: `ctc_fake_${n}`,
        call_id: `call_fake_${n}`,
        name: "apply_patch",
        input: reply.patch,
      },
    ];
  }
  return [
    {
      type: "message",
      role: "assistant",
      id: `msg_fake_${n}`,
      content: [{ type: "output_text", text: reply.text }],
    },
  ];
}

/** One `response.output_item.done` per item, then `response.completed` (without it the turn fails). */
function responseFrames(items: ResponseItem[], n: number): [string, unknown][] {
  const frames: [string, unknown][] = items.map((item, index) => [
    "response.output_item.done",
    { type: "response.output_item.done", output_index: index, item },
  ]);
  frames.push([
    "response.completed",
    {
      type: "response.completed",
      response: {
        id: `resp_fake_${n}`,
        usage: {
          input_tokens: 10,
          input_tokens_details: null,
          output_tokens: 5,
          output_tokens_details: null,
          total_tokens: 15,
        },
      },
    },
  ]);
  return frames;
}
