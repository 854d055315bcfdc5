import type { ClientSpec, HookInput, WiredEvent } from "../clients/types.js";
import { loadConfig } from "../config/load.js";
import type { ConfigProblem } from "../config/problems.js";
import { type ResolvedRoot, resolveRoot, stateDirOf } from "../config/root.js";
import type { Config } from "../config/schema.js";
import { agentCommandOf } from "../facts/agent-shell.js";
import { discoverAgent } from "../sessions/discover.js";
import { ensureSession } from "../sessions/register.js";
import { type Db, openDb } from "../store/db.js";
import { type SessionRow, sessionByNative } from "../store/queries.js";

export interface HookRequest {
  args: string[];
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  pid: number;
}

export interface HookCtx {
  client: ClientSpec;
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
}

/** Claude gives the project dir; the others tell us where the agent works in the payload. */
export function hookRoot(client: ClientSpec, input: HookInput | null, req: HookRequest): ResolvedRoot {
  const cwd = input?.cwd ?? req.cwd;
  const env = client.name === "claude-code" ? req.env : { ...req.env, CLAUDE_PROJECT_DIR: undefined };
  return resolveRoot({ cwd, env, hook: true });
}

export function openHookCtx(
  client: ClientSpec,
  wired: WiredEvent | null,
  input: HookInput,
  req: HookRequest,
): HookCtx {
  const root = hookRoot(client, input, req);
  const { config, problems: configProblems } = loadConfig(root.root, req.env);
  const stateDir = stateDirOf(root);
  const db = openDb(stateDir, { lockSeconds: config.storeLockSeconds });
  return { client, wired, input, req, root, config, configProblems, stateDir, db, now: Date.now() };
}

/** The caller's session, recorded on first sight. Call inside the hook's write transaction. */
export function hookSession(ctx: HookCtx): SessionRow {
  const known = sessionByNative(ctx.db, ctx.client.name, ctx.input.sessionId);
  if (known) return known;
  const parent = ctx.req.env.TANDEM_PARENT_SESSION || null;
  const { session } = ensureSession(
    ctx.db,
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

function agentOf(ctx: HookCtx): { agentPid: number | null; agentPidStart: string | null } {
  const agent = discoverAgent(ctx.client, ctx.req.env, ctx.req.pid);
  return { agentPid: agent?.pid ?? null, agentPidStart: agent?.start ?? null };
}

const commands = new WeakMap<HookCtx, string>();

/** How this agent's shell starts Tandem, for every command a message tells it to run (read once). */
export function agentCmd(ctx: HookCtx): string {
  let cmd = commands.get(ctx);
  if (cmd === undefined) {
    cmd = agentCommandOf(ctx.root.root, ctx.stateDir);
    commands.set(ctx, cmd);
  }
  return cmd;
}
