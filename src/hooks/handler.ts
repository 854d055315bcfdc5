import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { clientByName } from "../clients/index.js";
import {
  ALLOW,
  type ClientSpec,
  type HookInput,
  type HookKind,
  type Rendered,
  type Verdict,
  type WiredEvent,
} from "../clients/types.js";
import { loadConfig } from "../config/load.js";
import { stateDirOf } from "../config/root.js";
import { forgeryMessage } from "../core/forgery.js";
import { errorMessage } from "../errors.js";
import { type Db, openDb, StateCorruptError } from "../store/db.js";
import { appendOne } from "../store/ledger.js";
import { sessionByNative } from "../store/queries.js";
import { type HookCtx, type HookRequest, hookRoot, openHookCtx } from "./context.js";
import { forgedBy } from "./forgery.js";
import { runGitHook } from "./git-hooks.js";
import { onOther, onSessionEnd, onSessionStart } from "./lifecycle.js";
import { onPreTool } from "./pre-tool.js";
import { onPrompt } from "./prompt.js";
import { onStop } from "./stop.js";
import { onPostTool } from "./tool-events.js";

export type { HookRequest } from "./context.js";
export type HookResult = Rendered;

const HANDLERS: Record<HookKind, (ctx: HookCtx) => Verdict | Promise<Verdict>> = {
  "session-start": onSessionStart,
  prompt: onPrompt,
  "pre-tool": onPreTool,
  "post-tool": onPostTool,
  stop: onStop,
  "session-end": onSessionEnd,
  other: onOther,
};

const USAGE = "tandem: usage: tandem hook <claude-code|codex|cursor> <event> (payload on stdin)\n";

interface Failure {
  message: string;
  /** Corrupt state closes gates whatever agents.failClosed says (docs/product.md §9). */
  corrupt: boolean;
}

function failureVerdict(kind: HookKind, f: Failure, failClosed: boolean): Verdict {
  if (kind !== "pre-tool" || !(failClosed || f.corrupt)) return ALLOW;
  return {
    allow: false,
    rule: "internal-error",
    reason: `Tandem could not check this edit (${f.message}), and refuses it to stay safe. Run \`tandem doctor\` in the repository to see what is wrong.`,
  };
}

/** Records a hook failure in the ledger, or in a plain log when the ledger itself is unusable. */
function recordFailure(
  client: ClientSpec,
  event: string,
  input: HookInput | null,
  req: HookRequest,
  f: Failure,
  failed: "open" | "closed",
): void {
  try {
    const stateDir = stateDirOf(hookRoot(client, input, req));
    const who = input ? ` (session ${input.sessionId})` : "";
    if (!f.corrupt) {
      const db = openDb(stateDir);
      try {
        appendOne(db, {
          kind: "hook.error",
          session: null,
          data: { client: client.name, event, message: `${f.message}${who}`, failed },
        });
        if (input?.kind === "stop") recordFailOpenStop(db, client, input, f.message);
      } finally {
        db.close();
      }
      return;
    }
    mkdirSync(stateDir, { recursive: true });
    appendFileSync(
      join(stateDir, "hook-errors.log"),
      `${new Date().toISOString()} ${client.name} ${event} ${failed}${who}: ${f.message}\n`,
    );
  } catch {
    // Nowhere to record: the verdict still follows the fail-open/closed rule.
  }
}

/** Every Stop leaves a `turn.stopped`, also one whose check failed: it let the turn end (docs/product.md §6.3). */
function recordFailOpenStop(db: Db, client: ClientSpec, input: HookInput, message: string): void {
  const session = sessionByNative(db, client.name, input.sessionId);
  if (!session) return;
  appendOne(db, {
    kind: "turn.stopped",
    session: session.id,
    data: { verdict: "pass", rule: null, enforcement: "fail_open", reason: message },
  });
}

function parsePayload(
  client: ClientSpec,
  cliEvent: string,
  stdin: string,
): { input: HookInput } | { skip: true } | { error: string } {
  let payload: unknown;
  try {
    payload = JSON.parse(stdin);
  } catch {
    return { error: `payload is not JSON (${stdin.length} bytes)` };
  }
  const parsed = client.parse(cliEvent, payload);
  if (parsed.ok) return { input: parsed.input };
  return parsed.skip ? { skip: true } : { error: parsed.error };
}

async function run(
  client: ClientSpec,
  wired: WiredEvent | null,
  input: HookInput,
  req: HookRequest,
): Promise<Verdict> {
  const ctx = openHookCtx(client, wired, input, req);
  try {
    const forged = forgedBy(ctx.db, client, input, req);
    if (forged) return refuseForged(ctx, forged);
    return await HANDLERS[input.kind](ctx);
  } finally {
    ctx.db.close();
  }
}

/** A hook call forged from inside another agent's tool call changes nothing and is recorded. */
function refuseForged(ctx: HookCtx, forged: { id: string; name: string; named: string }): Verdict {
  const message = forgeryMessage(forged.named, forged.name);
  appendOne(ctx.db, {
    kind: "hook.error",
    session: forged.id,
    data: {
      client: ctx.client.name,
      event: ctx.input.event,
      message: `forged hook call: ${message}`,
      failed: "closed",
    },
  });
  return { allow: false, rule: "forged-hook", reason: `Tandem refused: ${message}` };
}

/** `tandem hook <client> <event>`: a function of its inputs that never touches `process`. */
export async function handleHook(req: HookRequest & { stdin: string }): Promise<HookResult> {
  const [clientName, cliEvent] = req.args;
  const client = clientByName(clientName ?? "");
  if (!client || !cliEvent) return { exitCode: 2, stdout: "", stderr: USAGE };
  const wired = client.events.find((e) => e.cli === cliEvent) ?? null;
  const kind = wired?.kind ?? "other";
  const parsed = parsePayload(client, cliEvent, req.stdin);
  if ("skip" in parsed) return client.render(kind, wired, ALLOW);
  const input = "input" in parsed ? parsed.input : null;
  let failure: Failure;
  if (input) {
    try {
      const verdict = await run(client, wired, input, req);
      // Not a client's call: the shell that forged it gets a plain refusal, not a client answer.
      if (verdict.rule === "forged-hook")
        return { exitCode: 2, stdout: "", stderr: `tandem: ${verdict.reason}\n` };
      return client.render(kind, wired, verdict);
    } catch (err) {
      failure = { message: errorMessage(err), corrupt: err instanceof StateCorruptError };
    }
  } else {
    failure = { message: "error" in parsed ? parsed.error : "unreadable payload", corrupt: false };
  }
  const verdict = failureVerdict(kind, failure, configuredFailClosed(client, input, req));
  recordFailure(client, cliEvent, input, req, failure, verdict.allow ? "open" : "closed");
  return client.render(kind, wired, verdict);
}

function configuredFailClosed(client: ClientSpec, input: HookInput | null, req: HookRequest): boolean {
  try {
    return loadConfig(hookRoot(client, input, req).root, req.env).config.failClosed;
  } catch {
    // An unreadable config is itself the failure being handled; fall back to the default.
    return false;
  }
}

/** `tandem git-hook <pre-commit|post-commit|post-checkout> [git's arguments]`. */
export async function handleGitHook(req: HookRequest): Promise<HookResult> {
  return runGitHook(req);
}
