import type { ClientName } from "../clients/index.js";
import type { ClientSpec, HookInput, WiredEvent } from "../clients/types.js";
import { loadConfig } from "../config/load.js";
import type { ConfigProblem } from "../config/problems.js";
import { type ResolvedRoot, resolveRoot, stateDirOf } from "../config/root.js";
import type { Config } from "../config/schema.js";
import type { Printer } from "../core/printed.js";
import { dirtySnapshotAsync } from "../git/status.js";
import { discoverAgent } from "../sessions/discover.js";
import { commandLine, processAlive } from "../sessions/proc.js";
import { ensureSession } from "../sessions/register.js";
import { isDaemon, uiProcess } from "../sessions/ui.js";
import { DIRECT_ACCESS, type StoreAccess } from "../store/access.js";
import type { Db, WriteTx } from "../store/db.js";
import { append } from "../store/ledger/append.js";
import { bindRequest, type RequestOwner } from "../store/ledger/requests.js";
import { type SessionRow, sessionByNative } from "../store/sessions/rows.js";
import { SHELL_TOOLS } from "../targets/tool-targets.js";
import { testNow } from "../testing/clock.js";
import { agentCommandOf, printerOf } from "../wiring/agent-shell.js";

export interface HookRequest {
  args: string[];
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  pid: number;
  /** Warm connections in the resident server; open-and-close otherwise. */
  store?: StoreAccess;
  /** A thin-client request, claimed by every write so it is never applied twice (docs/server.md §4). */
  request?: { id: string; owner: RequestOwner } | null;
  /**
   * Work that must not delay the answer (starting a background sync): run after the answer is
   * written. Without it, the work runs at once.
   */
  later?: (task: () => void) => void;
  /**
   * The shell reader is resident (the server): a shell command's pre-tool-use reads it first and
   * starts `git status` only when the command needs the whole tree. A fresh process starts git
   * at once instead, to run beside the reader's load.
   */
  warm?: boolean;
  /**
   * The time of the call, in milliseconds: every decision of the hook reads this clock (`ctx.now`).
   * Unset, it is the time the context opens (or, in the suite's build, TANDEM_TEST_NOW).
   */
  now?: number;
}

export interface HookCtx {
  client: ClientSpec<ClientName>;
  wired: WiredEvent | null;
  input: HookInput;
  req: HookRequest;
  root: ResolvedRoot;
  config: Config;
  /** What the config could not supply (it fell back); session start tells the agent. */
  configProblems: ConfigProblem[];
  stateDir: string;
  db: Db;
  now: number;
  /**
   * The repository's dirty set, started as the context opened for the events that read it, so git
   * runs while the hook does its other work (a shell command's pre- and post-tool hooks both wait
   * on it). Null when the event needs none or there is no repository.
   */
  dirtyAhead: Promise<Record<string, string>> | null;
  /** Stops the git that `dirtyAhead` runs, once it is known to be unneeded, so the process need not wait for it. */
  dropDirtyAhead(): void;
}

/**
 * A client that sets CLAUDE_PROJECT_DIR for its hooks (ClientSpec.givesProjectDir) is trusted with
 * it; the others tell us where the agent works in the payload, and an inherited value is dropped.
 */
export function hookRoot(
  client: ClientSpec<ClientName>,
  input: HookInput | null,
  req: HookRequest,
): ResolvedRoot {
  const cwd = input?.cwd ?? req.cwd;
  const env = client.givesProjectDir ? req.env : { ...req.env, CLAUDE_PROJECT_DIR: undefined };
  return resolveRoot({ cwd, env, hook: true });
}

export function openHookCtx(
  client: ClientSpec<ClientName>,
  wired: WiredEvent | null,
  input: HookInput,
  req: HookRequest,
  root: ResolvedRoot = hookRoot(client, input, req),
): HookCtx {
  const { config, problems: configProblems } = loadConfig(root.root, req.env);
  const stateDir = stateDirOf(root);
  const db = (req.store ?? DIRECT_ACCESS).open(stateDir, { lockSeconds: config.storeLockSeconds });
  if (req.request) bindRequest(db, req.request.id, req.request.owner);
  const ahead = new AbortController();
  const dirtyAhead =
    root.repo && readsDirtySet(input, req) ? dirtySnapshotAsync(root.repo.top, ahead.signal) : null;
  // Handled here so a refusal that never waits on it cannot end the process with an unhandled
  // rejection; whoever awaits it still gets the error.
  dirtyAhead?.catch(() => {});
  const now = req.now ?? testNow(req.env) ?? Date.now();
  const dropDirtyAhead = () => ahead.abort();
  return {
    client,
    wired,
    input,
    req,
    root,
    config,
    configProblems,
    stateDir,
    db,
    now,
    dirtyAhead,
    dropDirtyAhead,
  };
}

/**
 * Prompt and Stop snapshot the turn; a shell command's pre-tool-use may snapshot the command, so a
 * fresh process starts git at once. Its post-tool-use starts git itself, after reading what the
 * pre-tool-use saved (hooks/shell-delta.ts).
 */
function readsDirtySet(input: HookInput, req: HookRequest): boolean {
  if (input.kind === "prompt" || input.kind === "stop") return true;
  const shell = input.tool !== null && SHELL_TOOLS.has(input.tool.name);
  return shell && input.kind === "pre-tool" && !req.warm;
}

/** The caller's session row, looked up once per request (and refreshed by hookSession). */
const selves = new WeakMap<HookCtx, SessionRow>();

/** The caller's session if it is recorded; null for a session's first call. */
export function selfSession(ctx: HookCtx): SessionRow | null {
  const memo = selves.get(ctx);
  if (memo) return memo;
  const row = sessionByNative(ctx.db, ctx.client.name, ctx.input.sessionId) ?? null;
  if (row) selves.set(ctx, row);
  return row;
}

/** The caller's session, recorded on first sight. Call inside the hook's write transaction. */
export function hookSession(ctx: HookCtx, tx: WriteTx): SessionRow {
  const session = recordedSession(ctx, tx);
  selves.set(ctx, session);
  return session;
}

function recordedSession(ctx: HookCtx, tx: WriteTx): SessionRow {
  const known = sessionByNative(ctx.db, ctx.client.name, ctx.input.sessionId);
  if (known) return reattached(ctx, tx, known);
  const parent = ctx.req.env.TANDEM_PARENT_SESSION || null;
  const { session } = ensureSession(
    tx,
    {
      client: ctx.client.name,
      nativeId: ctx.input.sessionId,
      kind: parent ? "subagent" : "session",
      parentId: parent,
      ...agentOf(ctx),
      cwd: ctx.input.cwd,
      source: ctx.input.source ?? ctx.input.event,
    },
    ctx.now,
  );
  return session;
}

function agentOf(ctx: HookCtx) {
  const agent = discoverAgent(ctx.client, ctx.req.env, ctx.req.pid);
  const ui = uiProcess(ctx.client, agent, ctx.req.env, ctx.input.cwd);
  return {
    agentPid: agent?.pid ?? null,
    agentPidStart: agent?.start ?? null,
    uiPid: ui?.pid ?? null,
    uiPidStart: ui?.start ?? null,
  };
}

/**
 * A session whose recorded UI is gone but that calls a hook again was resumed from another UI
 * (`claude --resume`, `codex resume`): record the new one, or its liveness would judge it left.
 * One under a shared daemon whose UI was not found at its start is looked for again.
 */
function reattached(ctx: HookCtx, tx: WriteTx, known: SessionRow): SessionRow {
  const retry = !known.ui_pid && underDaemon(ctx, known);
  if (!retry && (!known.ui_pid || processAlive(known.ui_pid, known.ui_pid_start))) return known;
  const { uiPid, uiPidStart } = agentOf(ctx);
  if (!uiPid || uiPid === known.ui_pid) return known;
  append(tx, { kind: "session.attached", session: known.id, ts: ctx.now, data: { uiPid, uiPidStart } });
  return sessionByNative(ctx.db, ctx.client.name, ctx.input.sessionId) ?? known;
}

/** The session's recorded agent is its client's shared daemon (one /proc read; none for other rules). */
function underDaemon(ctx: HookCtx, known: SessionRow): boolean {
  const rule = ctx.client.ui;
  if (rule.kind !== "agent" || rule.daemonArgs.length === 0 || !known.agent_pid) return false;
  const args = commandLine(known.agent_pid);
  return args !== null && isDaemon(rule, args);
}

const commands = new WeakMap<HookCtx, string>();

/** How a hook's message spells a command for this agent (src/core/shell/printed.ts). */
export function agentPrinter(ctx: HookCtx): Printer {
  return { reader: "agent", launcher: agentCmd(ctx) };
}

const persons = new WeakMap<HookCtx, Printer>();

/** How the agent's user starts Tandem, for a command the agent is told to ask them to run (read once). */
export function personPrinter(ctx: HookCtx): Printer {
  let p = persons.get(ctx);
  if (p === undefined) {
    p = printerOf(ctx.root.root, ctx.stateDir, "person");
    persons.set(ctx, p);
  }
  return p;
}

/** How this agent's shell starts Tandem, for every command a message tells it to run (read once). */
export function agentCmd(ctx: HookCtx): string {
  let cmd = commands.get(ctx);
  if (cmd === undefined) {
    cmd = agentCommandOf(ctx.root.root, ctx.stateDir);
    commands.set(ctx, cmd);
  }
  return cmd;
}
