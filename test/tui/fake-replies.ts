import type { ClaudeReply, MessagesRequest } from "../e2e/harness/anthropic-fake.js";
import type { GeminiReply, GeminiRequest } from "../e2e/harness/gemini-fake.js";
import type { CodexReply, ResponsesRequest } from "../e2e/harness/responses-fake.js";

/**
 * A person types orders into the UI; the fake model obeys the newest one. `WRITE <abs path>` (Claude)
 * or `PATCH <rel path>` (Codex) edits a file, `RUN <<cmd>>` runs a shell command; after a tool
 * result the model ends the turn, and anything else gets a plain reply.
 */
export const DONE = "Done with the tool.";
export const REPLY = "Fine, reply.";

type Msg = { role: string; content: unknown };
type Block = { type?: string; text?: string };

/** Texts of the messages after the last assistant one: the newest prompt and its hook context. */
function newestTurn(messages: Msg[]): { afterTool: boolean; text: string } {
  const texts: string[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]!.role !== "assistant"; i--) {
    const c = messages[i]!.content;
    const blocks: Block[] = Array.isArray(c) ? (c as Block[]) : [{ type: "text", text: String(c ?? "") }];
    if (i === messages.length - 1 && blocks.some((b) => b.type === "tool_result"))
      return { afterTool: true, text: "" };
    texts.push(blocks.map((b) => b.text ?? "").join("\n"));
  }
  return { afterTool: false, text: texts.join("\n") };
}

export function claudeReply(req: MessagesRequest): ClaudeReply {
  const turn = newestTurn((req.body.messages ?? []) as Msg[]);
  if (turn.afterTool) return { text: DONE };
  const write = /WRITE (\S+)/.exec(turn.text);
  if (write) return { tool: "Write", input: { file_path: write[1], content: "hello\n" } };
  const run = /RUN <<(.+?)>>/.exec(turn.text);
  if (run) return { tool: "Bash", input: { command: run[1], description: "run it" } };
  return { text: REPLY };
}

export function codexReply(req: ResponsesRequest): CodexReply {
  const input = (req.body.input ?? []) as { type?: string; role?: string; content?: unknown }[];
  if (/output$/.test(String(input[input.length - 1]?.type))) return { text: DONE };
  const messages = input
    .filter((i) => i.type === "message")
    .map((i) => ({ role: i.role ?? "user", content: i.content }));
  const turn = newestTurn(messages);
  const patch = /PATCH (\S+)/.exec(turn.text);
  if (patch) return { patch: `*** Begin Patch\n*** Add File: ${patch[1]}\n+hello\n*** End Patch\n` };
  const run = /RUN <<(.+?)>>/.exec(turn.text);
  if (run) return { exec: run[1]! };
  return { text: REPLY };
}

/** Enough identical steps for any test: the fakes index steps by tool results so far. */
export const steps = <T>(f: T): T[] => Array.from({ length: 100 }, () => f);

/** Gemini's newest content: a prompt (the person's, or a reason a hook sent back) or a tool result. */
function geminiTurn(req: GeminiRequest): { afterTool: string | null; text: string } {
  const contents = req.body.contents ?? [];
  const last = contents[contents.length - 1]?.parts ?? [];
  if (last.some((p) => p.functionResponse)) {
    const call = contents[contents.length - 2]?.parts?.find((p) => p.functionCall)?.functionCall;
    return {
      afterTool: String((call?.args as { command?: unknown } | undefined)?.command ?? call?.name),
      text: "",
    };
  }
  return { afterTool: null, text: req.lastText };
}

/**
 * Gemini's model: `WRITE <abs path>` writes with write_file, `RUN <<cmd>>` runs a shell command, and
 * Tandem's end-of-turn reason is obeyed as a model would: `tandem task`, then `tandem status`, then
 * a reply. Anything else gets a plain reply.
 */
export function geminiReply(req: GeminiRequest): GeminiReply {
  const turn = geminiTurn(req);
  if (turn.afterTool?.startsWith("tandem task")) return shellCall("tandem status");
  if (turn.afterTool !== null) return { text: DONE };
  if (/end-of-turn ritual is incomplete/.test(turn.text)) return shellCall('tandem task "writing files"');
  const write = /WRITE (\S+)/.exec(turn.text);
  if (write) return { call: "write_file", args: { file_path: write[1], content: "hello\n" } };
  const run = /RUN <<(.+?)>>/.exec(turn.text);
  if (run) return shellCall(run[1]!);
  return { text: REPLY };
}

const shellCall = (command: string): GeminiReply => ({
  call: "run_shell_command",
  args: { command, description: "run it" },
});
