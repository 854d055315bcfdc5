import { type ClientName, clientAlternatives } from "../clients/index.js";
import {
  ALLOW,
  type ClientSpec,
  type HookInput,
  type HookKind,
  type Rendered,
  type Verdict,
} from "../clients/types.js";
import { loadConfig } from "../config/load.js";
import { stateDirOf } from "../config/root.js";
import { forgeryMessage } from "../core/guards/forgery.js";
import { PLAIN, type Printer, spanned } from "../core/printed.js";
import { refusal } from "../core/rules/catalog.js";
import { errorMessage } from "../errors.js";
import { syncSoon } from "../remote/sync-soon.js";
import { DIRECT_ACCESS } from "../store/access.js";
import { type Db, dbFile, lockWaitSeconds, openDb } from "../store/db.js";
import { StoreError, storeErrorOf } from "../store/failure.js";
import { logFailure, recordStoreFailure } from "../store/failure-log.js";
import { appendOne } from "../store/ledger/append.js";
import { unbindRequest } from "../store/ledger/requests.js";
import { sessionByNative } from "../store/sessions/rows.js";
import { toolTargets } from "../targets/tool-targets.js";
import { printerOf } from "../wiring/agent-shell.js";
import { agentPrinter, type HookCtx, type HookRequest, hookRoot, openHookCtx } from "./context.js";
import { asDiskFull, retryFreeing } from "./disk-full.js";
import { forgedBy } from "./forgery.js";
import { runGitHook } from "./git-hooks.js";
import { leftWorkAtHook } from "./left-work.js";
import { onOther, onSessionEnd, onSessionStart } from "./lifecycle.js";
import { handleOnce } from "./once.js";
import { onPreTool } from "./pre-tool.js";
import { onPrompt } from "./prompt.js";
import { type ReadHook, readHook, stateDirOfRead } from "./read.js";
import { onStop } from "./stop.js";
import { onPostTool } from "./tool-events.js";
import { sessionStartUpkeep } from "./upkeep.js";
import { healWiringOf, withHealNotice } from "./wiring-heal.js";

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

export const HOOK_USAGE = `tandem: usage: tandem hook <${clientAlternatives()}> <event> (payload on stdin)\n`;

interface Failure {
  message: string;
  /** The store could not be read or written: gated writes refuse whatever agents.failClosed says. */
  store: StoreError | null;
}

/**
 * The answer when a hook failed. A gated write (a tool call with write targets
 * or a shell command) never passes unchecked because the store failed; other
 * failures follow agents.failClosed (PRODUCT §9); observational events pass.
 */
export function failureVerdict(
  kind: HookKind,
  f: Failure,
  gated: boolean,
  failClosed: boolean,
  printer: Printer,
): Verdict {
  if (kind !== "pre-tool") return ALLOW;
  const doctor = spanned(printer, "doctor");
  if (f.store?.problem === "full" && gated) {
    return refusal("disk-full", { detail: f.store.messageFor(printer), gc: spanned(printer, "gc") });
  }
  if (f.store?.problem === "locked" && gated) {
    return refusal("store-busy", { detail: f.store.messageFor(printer) });
  }
  if (f.store && gated) {
    return refusal("store-unavailable", { detail: f.store.messageFor(printer), doctor });
  }
  if (!failClosed) return ALLOW;
  return refusal("internal-error", { failure: f.store ? f.store.messageFor(printer) : f.message, doctor });
}

/** Whether the failed call was a gated write; unknown counts as gated. */
async function isGated(kind: HookKind, input: HookInput | null): Promise<boolean> {
  if (kind !== "pre-tool" || !input?.tool) return false;
  try {
    const found = await toolTargets(input.tool);
    return found.raws.length > 0 || found.shell;
  } catch {
    return true;
  }
}

function stateDirFor(
  client: ClientSpec<ClientName>,
  input: HookInput | null,
  req: HookRequest,
): string | null {
  try {
    return stateDirOf(hookRoot(client, input, req));
  } catch {
    return null;
  }
}

/**
 * Records a hook failure: a store failure in the failure log beside the store
 * (the ledger is what failed), anything else in the ledger, or in the log when
 * the ledger will not take it either.
 */
function recordFailure(
  client: ClientSpec<ClientName>,
  event: string,
  input: HookInput | null,
  stateDir: string | null,
  f: Failure,
  failed: "open" | "closed",
): void {
  if (!stateDir) return; // Outside a repository there is no store to fail or to record in.
  const entry = { source: `hook ${client.name} ${event}`, session: input?.sessionId ?? null, failed };
  if (f.store) {
    recordStoreFailure(stateDir, f.store, entry);
    return;
  }
  try {
    const who = input ? ` (session ${input.sessionId})` : "";
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
  } catch (err) {
    const why = `${f.message}; recording it in the ledger failed too: ${errorMessage(err)}`;
    logFailure(stateDir, { ts: new Date().toISOString(), ...entry, problem: "error", message: why });
  }
}

/** Every Stop leaves a `turn.stopped`, also one whose check failed: it let the turn end (docs/product.md §6.3). */
function recordFailOpenStop(db: Db, client: ClientSpec<ClientName>, input: HookInput, message: string): void {
  const session = sessionByNative(db, client.name, input.sessionId);
  if (!session) return;
  appendOne(db, {
    kind: "turn.stopped",
    session: session.id,
    data: { verdict: "pass", rule: null, enforcement: "fail_open", reason: message },
  });
}

async function run(read: ReadHook, input: HookInput, req: HookRequest): Promise<Verdict> {
  const { client } = read;
  if (!read.root.ok) throw read.root.error;
  const ctx = openHookCtx(client, read.wired, input, req, read.root.value);
  try {
    // Once per session, off the gated path: damage no gate's query reads still closes the gates
    // (inline for a small store, in the daily background upkeep for a big one).
    if (input.kind === "session-start") {
      const problem = sessionStartUpkeep(ctx);
      if (problem) throw new StoreError("corrupt", dbFile(ctx.stateDir), problem, true);
    }
    const forged = forgedBy(ctx.db, client, input, req);
    if (forged) return refuseForged(ctx, forged);
    healWiringOf(ctx);
    await leftWorkAtHook(ctx);
    const verdict = withHealNotice(ctx, await HANDLERS[input.kind](ctx));
    // Turns keep this checkout's presence on the remote fresh (at most every interval).
    if (input.kind === "prompt" || input.kind === "stop") syncSoon(ctx, false);
    return verdict;
  } catch (err) {
    throw withLockWait(err, ctx);
  } finally {
    // A refusal, or a command measured without it: git need not finish before the process can.
    ctx.dropDirtyAhead();
    if (req.request) unbindRequest(ctx.db);
    (req.store ?? DIRECT_ACCESS).release(ctx.db);
  }
}

/**
 * A held lock's failure names the bound and how long this connection waited (what is left of the
 * bound on the server, core/server/lock-wait.ts), and tells the server's pool the lock is held.
 */
function withLockWait(err: unknown, ctx: HookCtx): unknown {
  const e = storeErrorOf(err, dbFile(ctx.stateDir));
  if (e?.problem !== "locked") return err;
  const waited = lockWaitSeconds(ctx.db);
  // Only a wait that ran out says the lock is held (not a stale snapshot's immediate BUSY_SNAPSHOT).
  if (e.detail.startsWith("SQLITE_BUSY:")) ctx.req.store?.lockFailed?.(ctx.db, Date.now() - waited * 1000);
  const bound = ctx.config.storeLockSeconds;
  const detail = `${e.detail}; held past the ${bound} s agents.storeLockSeconds allows (this call waited ${waited} s)`;
  return new StoreError("locked", e.file, detail);
}

/** A hook call forged from inside another agent's tool call changes nothing and is recorded. */
function refuseForged(ctx: HookCtx, forged: { id: string; name: string; named: string }): Verdict {
  const verdict = refusal("forged-hook", {
    named: forged.named,
    by: forged.name,
    printer: agentPrinter(ctx),
  });
  appendOne(ctx.db, {
    kind: "hook.error",
    session: forged.id,
    data: {
      client: ctx.client.name,
      event: ctx.input.event,
      message: `forged hook call: ${forgeryMessage(forged.named, forged.name, agentPrinter(ctx))}`,
      failed: "closed",
    },
  });
  return verdict;
}

/**
 * `tandem hook <client> <event>`: a function of its inputs that never touches `process`. `read` is
 * the request already read by the caller (the server's dispatch); otherwise it is read here, once.
 */
export function handleHook(
  req: HookRequest & { stdin: string },
  read: ReadHook | null = readHook(req),
): Promise<HookResult> {
  return handleOnce(req, read, () => handleCall(req, read));
}

async function handleCall(req: HookRequest, read: ReadHook | null): Promise<HookResult> {
  if (!read) return { exitCode: 2, stdout: "", stderr: HOOK_USAGE };
  const { client, cliEvent, wired, kind, parsed, input } = read;
  if ("skip" in parsed) return client.render(kind, wired, ALLOW);
  // A client's payload on an event we do not wire is a newer client's event: allowed as
  // before. No payload and no known event is a person's typo: name the real problem.
  if (!wired && "error" in parsed) return unknownEvent(client, cliEvent, req);
  let thrown: unknown = null;
  if (input) {
    try {
      const verdict = await run(read, input, req);
      // Not a client's call: the shell that forged it gets a plain refusal, not a client answer.
      if (verdict.rule === "forged-hook")
        return { exitCode: 2, stdout: "", stderr: `tandem: ${verdict.reason}\n` };
      return client.render(kind, wired, verdict);
    } catch (err) {
      thrown = err;
    }
  }
  const stateDir = stateDirOfRead(read);
  const failure: Failure = input
    ? {
        message: errorMessage(thrown),
        store: stateDir ? asDiskFull(storeErrorOf(thrown, dbFile(stateDir)), stateDir) : null,
      }
    : { message: "error" in parsed ? parsed.error : "unreadable payload", store: null };
  if (failure.store?.problem === "full" && input && stateDir && kind === "pre-tool") {
    // A call that only frees space is judged again in the room the store's reserve held.
    const freed = await retryFreeing(input, stateDir, () => run(read, input, req));
    if (freed) return client.render(kind, wired, freed);
  }
  const gated = await isGated(kind, input);
  // Read by the agent whose tool call failed: spelled as its shell starts Tandem.
  const printer = read.root.ok && stateDir ? printerOf(read.root.value.root, stateDir, "agent") : PLAIN;
  const verdict = failureVerdict(kind, failure, gated, configuredFailClosed(client, input, req), printer);
  recordFailure(client, cliEvent, input, stateDir, failure, verdict.allow ? "open" : "closed");
  return client.render(kind, wired, verdict);
}

function unknownEvent(client: ClientSpec<ClientName>, cliEvent: string, req: HookRequest): HookResult {
  const known = client.events.map((e) => e.cli).join(", ");
  const message = `unknown event ${JSON.stringify(cliEvent)} for ${client.name}; Tandem wires ${known}`;
  const stateDir = stateDirFor(client, null, req);
  recordFailure(client, cliEvent, null, stateDir, { message, store: null }, "open");
  return {
    exitCode: 2,
    stdout: "",
    stderr: `tandem: ${message}. Check the event name, or re-run ${spanned(initPrinter(client, req, stateDir), "init")} to rewrite the wiring.\n`,
  };
}

/** Who rewires is a person (init is theirs): spelled by the launcher init recorded here. */
function initPrinter(client: ClientSpec<ClientName>, req: HookRequest, stateDir: string | null): Printer {
  if (stateDir === null) return PLAIN;
  try {
    return printerOf(hookRoot(client, null, req).root, stateDir, "person");
  } catch {
    return PLAIN;
  }
}

function configuredFailClosed(
  client: ClientSpec<ClientName>,
  input: HookInput | null,
  req: HookRequest,
): boolean {
  try {
    return loadConfig(hookRoot(client, input, req).root, req.env).config.failClosed;
  } catch {
    // An unreadable config is itself the failure being handled; fall back to the default.
    return false;
  }
}

/** `tandem git-hook <pre-commit|prepare-commit-msg|post-commit|post-checkout> [git's arguments]`. */
export async function handleGitHook(req: HookRequest): Promise<HookResult> {
  return runGitHook(req);
}
