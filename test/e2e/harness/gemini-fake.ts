import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { closeServer, listenLocal, readBody, sendJson } from "./http.js";

/** What the fake model answers: one function call, or a final text. */
export type GeminiReply = { call: string; args: Record<string, unknown> } | { text: string };

interface Part {
  text?: string;
  functionCall?: { name: string; args?: unknown };
  functionResponse?: { name: string; response?: { output?: unknown; error?: unknown } };
}

export interface GeminiBody {
  contents?: { role?: string; parts?: Part[] }[];
  tools?: { functionDeclarations?: { name?: string }[] }[];
  [key: string]: unknown;
}

export interface GeminiRequest {
  /** `models/<model>:<method>`: `streamGenerateContent` for agent turns. */
  model: string;
  method: string;
  body: GeminiBody;
  /** `functionResponse` parts so far: the index of the scripted step this request gets. */
  functionResponses: number;
  /** Every text and function result in `contents`, joined: for matching and asserts. */
  text: string;
  /** The texts of the last content (a new prompt: the user's, or one a hook sent back). */
  lastText: string;
  /** The newest function result: its `output`, or its `error` (a refusal reads "Tool execution blocked: …"). */
  lastResult: string;
  /** A request without Gemini's tools (a routing or next-speaker check): answered without the script. */
  auxiliary: boolean;
  reply?: GeminiReply;
}

/** A function step may return a promise: the reply, and so the client's turn, waits for it (see gate.ts). */
export type GeminiStep = GeminiReply | ((req: GeminiRequest) => GeminiReply | Promise<GeminiReply>);

export interface GeminiFake {
  /** For `GOOGLE_GEMINI_BASE_URL`. */
  readonly url: string;
  readonly requests: GeminiRequest[];
  /** Step functions that threw; a test should expect this to stay empty. */
  readonly errors: string[];
  /**
   * Adds a script for the requests `match` accepts (Gemini sends no session header: match on the
   * prompt's text), else the default one. Step = number of function results so far.
   */
  script(steps: GeminiStep[], match?: (req: GeminiRequest) => boolean): void;
  close(): Promise<void>;
}

const EXHAUSTED: GeminiReply = { text: "(fake model: script exhausted)" };

/** Starts a scripted Gemini API server (`/v1beta/models/…`) on 127.0.0.1 (random port). */
export async function startGeminiFake(): Promise<GeminiFake> {
  const scripts: { steps: GeminiStep[]; match?: (req: GeminiRequest) => boolean }[] = [];
  const requests: GeminiRequest[] = [];
  const errors: string[] = [];
  let n = 0;
  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      errors.push(String(e));
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const m = /\/models\/([^:/?]+):(\w+)/.exec(req.url ?? "");
    if (!m) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: 404, message: `fake: no ${req.url}`, status: "NOT_FOUND" } }));
      return;
    }
    const [, model, method] = m as unknown as [string, string, string];
    if (method === "countTokens") return sendJson(res, { totalTokens: 10 });
    const parsed = parseRequest(model, method, raw ? (JSON.parse(raw) as GeminiBody) : {});
    requests.push(parsed);
    // Gemini's side checks ask for JSON ("who speaks next"): the user does, so the turn ends.
    parsed.reply = parsed.auxiliary
      ? { text: JSON.stringify({ reasoning: "fake", next_speaker: "user", model_choice: "flash" }) }
      : await pickReply(scripts, parsed, errors);
    n += 1;
    const answer = candidate(model, parsed.reply, n);
    if (method === "streamGenerateContent") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`data: ${JSON.stringify(answer)}\r\n\r\n`);
    } else sendJson(res, answer);
  }

  const url = await listenLocal(server);
  return {
    url,
    requests,
    errors,
    script: (steps, match) => {
      scripts.push({ steps, ...(match ? { match } : {}) });
    },
    close: () => closeServer(server),
  };
}

function parseRequest(model: string, method: string, body: GeminiBody): GeminiRequest {
  const contents = body.contents ?? [];
  const texts: string[] = [];
  let functionResponses = 0;
  let lastResult = "";
  for (const c of contents) {
    for (const p of c.parts ?? []) {
      if (typeof p.text === "string") texts.push(p.text);
      if (p.functionResponse) {
        functionResponses += 1;
        const r = p.functionResponse.response ?? {};
        lastResult = String(r.output ?? r.error ?? "");
        texts.push(lastResult);
      }
    }
  }
  const last = contents[contents.length - 1]?.parts ?? [];
  const tools = (body.tools ?? []).flatMap((t) => t.functionDeclarations ?? []);
  return {
    model,
    method,
    body,
    functionResponses,
    text: texts.join("\n"),
    lastText: last.flatMap((p) => (typeof p.text === "string" ? [p.text] : [])).join("\n"),
    lastResult,
    auxiliary: !tools.some((t) => t.name === "write_file"),
  };
}

async function pickReply(
  scripts: { steps: GeminiStep[]; match?: (req: GeminiRequest) => boolean }[],
  req: GeminiRequest,
  errors: string[],
): Promise<GeminiReply> {
  const script = scripts.find((s) => s.match?.(req)) ?? scripts.find((s) => s.match === undefined);
  const step = script?.steps[req.functionResponses];
  if (step === undefined) return EXHAUSTED;
  try {
    return typeof step === "function" ? await step(req) : step;
  } catch (e) {
    errors.push(`step ${req.functionResponses} threw: ${String(e)}`);
    return { text: `(fake model: step failed: ${String(e)})` };
  }
}

/** One whole answer, as Gemini streams it (a single SSE frame is enough). */
function candidate(model: string, reply: GeminiReply, n: number): unknown {
  const parts =
    "call" in reply ? [{ functionCall: { name: reply.call, args: reply.args } }] : [{ text: reply.text }];
  return {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: model,
    responseId: `fake-${n}`,
  };
}
