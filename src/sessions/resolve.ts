import { CLIENTS } from "../clients/index.js";
import { UsageError } from "../errors.js";
import type { Db } from "../store/db.js";
import { findSessions, openSessions, type SessionRow, sessionByNative } from "../store/queries.js";
import { ancestors } from "./proc.js";
import { sessionViews } from "./view.js";

export interface ResolveRequest {
  flag?: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  pid: number;
  freshnessSeconds: number;
  /** Last resort for CLI commands; never for the commit guard, where a human may be committing. */
  allowSingleLive: boolean;
}

export interface Resolved {
  session: SessionRow;
  via: "flag" | "TANDEM_SESSION" | "client-env" | "process" | "single-live";
}

function byRef(db: Db, ref: string, what: string): SessionRow {
  const found = findSessions(db, ref);
  if (found.length === 1) return found[0]!;
  if (found.length === 0)
    throw new UsageError(`no session matches ${what} ${ref}; list them with \`tandem sessions --all\`.`);
  throw new UsageError(`${what} ${ref} matches ${found.length} sessions; pass the Tandem name instead.`);
}

/** Sessions named by the clients' own variables; several when variables leaked from a parent agent. */
function fromClientEnv(db: Db, env: ResolveRequest["env"]): SessionRow[] {
  const out: SessionRow[] = [];
  for (const client of Object.values(CLIENTS)) {
    for (const name of client.sessionEnv) {
      const id = env[name];
      const s = id ? sessionByNative(db, client.name, id) : undefined;
      if (s && !out.some((o) => o.id === s.id)) out.push(s);
    }
  }
  return out;
}

/** Whether the environment names a session (TANDEM_SESSION or a client's variable): an agent asks. */
export function envNamesSession(env: ResolveRequest["env"]): boolean {
  if (env.TANDEM_SESSION) return true;
  return Object.values(CLIENTS).some((c) => c.sessionEnv.some((name) => Boolean(env[name])));
}

/** The nearest ancestor process that is a recorded agent (same pid and start stamp). */
function fromAncestry(pid: number, among: SessionRow[]): SessionRow | null {
  const chain = ancestors(pid, 24);
  for (const p of chain) {
    const s = among.find(
      (x) => x.agent_pid === p.pid && (x.agent_pid_start === null || x.agent_pid_start === p.start),
    );
    if (s) return s;
  }
  return null;
}

/**
 * Finds the session a command runs for (docs/product.md §4.1): --session, TANDEM_SESSION,
 * the client's session variables, the caller's process ancestry, the single live
 * session. Returns null when nothing resolves.
 */
export function resolveCaller(db: Db, req: ResolveRequest): Resolved | null {
  if (req.flag) return { session: byRef(db, req.flag, "--session"), via: "flag" };
  if (req.env.TANDEM_SESSION)
    return { session: byRef(db, req.env.TANDEM_SESSION, "TANDEM_SESSION"), via: "TANDEM_SESSION" };
  const envSessions = fromClientEnv(db, req.env);
  const open = openSessions(db);
  if (envSessions.length === 1) return { session: envSessions[0]!, via: "client-env" };
  // Variables leak into child agents (a Codex started from a Claude shell has both): ancestry decides.
  const ancestor = fromAncestry(req.pid, envSessions.length > 1 ? envSessions : open);
  if (ancestor) return { session: ancestor, via: envSessions.length > 1 ? "client-env" : "process" };
  if (envSessions.length > 1) return { session: envSessions[envSessions.length - 1]!, via: "client-env" };
  if (!req.allowSingleLive) return null;
  const live = sessionViews(db, req.freshnessSeconds).filter((s) => s.live);
  if (live.length !== 1) return null;
  return { session: open.find((s) => s.id === live[0]!.id)!, via: "single-live" };
}

/** For CLI commands: the caller's session or a usage error naming --session. */
export function requireCaller(db: Db, req: ResolveRequest): Resolved {
  const r = resolveCaller(db, req);
  if (r) return r;
  throw new UsageError(
    "cannot tell which agent session this is; pass --session <name or id> (see `tandem sessions`), or set TANDEM_SESSION.",
  );
}
