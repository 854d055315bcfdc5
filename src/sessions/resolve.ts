import { CLIENTS } from "../clients/index.js";
import { type Printer, type Reader, spanned } from "../core/printed.js";
import { type CallerPlace, decideIdentity, type NamedVia } from "../core/sessions/identity.js";
import { isLive } from "../core/sessions/liveness.js";
import { TandemError, UsageError } from "../errors.js";
import type { Db } from "../store/db.js";
import { append, write } from "../store/ledger/append.js";
import {
  findSessions,
  openSessions,
  type SessionRow,
  sessionById,
  sessionByNative,
} from "../store/sessions/rows.js";
import { livenessFacts } from "./liveness.js";
import { ancestors, processAlive, terminalOf } from "./proc.js";
import { sessionViews } from "./view.js";

export interface ResolveRequest {
  flag?: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  pid: number;
  freshnessSeconds: number;
  /** Last resort for CLI commands; never for the commit guard, where a human may be committing. */
  allowSingleLive: boolean;
  /**
   * The command writes for the session it resolves (claims, task, end of turn): naming another
   * session from inside an agent's process is then refused and recorded, not overruled.
   */
  command?: string;
  /** How a usage error spells the command it points to, for its reader (decision 0051). */
  printerFor: (reader: Reader) => Printer;
  /** The session whose kernel jail sent the request (decision 0064): believed over everything else. */
  jail?: string;
}

export interface Resolved {
  session: SessionRow;
  via: "flag" | "TANDEM_SESSION" | "client-env" | "process" | "single-live" | "jail";
  /** Why the session named was not the one resolved (the ancestry overruled it), for the caller to show. */
  note?: string;
}

/** `--session` is a person's way to name a session; TANDEM_SESSION an agent's shell's. */
function byRef(db: Db, ref: string, what: string, p: Printer): SessionRow {
  const found = findSessions(db, ref);
  if (found.length === 1) return found[0]!;
  if (found.length === 0)
    throw new UsageError(
      `no session matches ${what} ${ref}; list them with ${spanned(p, "sessions", "--all")}.`,
    );
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

/**
 * The recorded agent processes among the caller's ancestors (same pid and start stamp), nearest
 * first, each as the open sessions it hosts.
 */
function agentsAbove(pid: number, open: SessionRow[]): SessionRow[][] {
  const out: SessionRow[][] = [];
  for (const p of ancestors(pid, 24)) {
    const hosted = open.filter(
      (x) => x.agent_pid === p.pid && (x.agent_pid_start === null || x.agent_pid_start === p.start),
    );
    if (hosted.length > 0) out.push(hosted);
  }
  return out;
}

/** What the command says it is: --session, TANDEM_SESSION, else the clients' variables. */
function named(db: Db, req: ResolveRequest, above: SessionRow[][]): { s: SessionRow; via: NamedVia } | null {
  if (req.flag) return { s: byRef(db, req.flag, "--session", req.printerFor("person")), via: "flag" };
  if (req.env.TANDEM_SESSION)
    return {
      s: byRef(db, req.env.TANDEM_SESSION, "TANDEM_SESSION", req.printerFor("agent")),
      via: "TANDEM_SESSION",
    };
  const env = fromClientEnv(db, req.env);
  if (env.length === 0) return null;
  // Variables leak into child agents (a Codex started from a Claude shell has both): the nearest agent's.
  const nearestFirst = above.flat();
  const s = nearestFirst.find((a) => env.some((e) => e.id === a.id)) ?? env[env.length - 1]!;
  return { s, via: "client-env" };
}

/** Whether `s`'s agent process still runs and is `agent` or runs below it. */
function runsWithin(s: SessionRow, agent: SessionRow): boolean {
  if (!s.agent_pid || !processAlive(s.agent_pid, s.agent_pid_start)) return false;
  if (s.agent_pid === agent.agent_pid) return true; // one process, an ended or sibling session of it
  return ancestors(s.agent_pid, 24).some((p) => p.pid === agent.agent_pid);
}

/**
 * Where a caller with no agent among its ancestors runs (core/sessions/identity.ts): a terminal no
 * live agent's process shares its session with, or not. A session is a process's for life unless
 * it starts its own (and loses its terminal), so a process an agent's command left behind keeps
 * the agent's session or has no terminal. Costs a /proc read per live agent process, and only
 * here: an un-nested caller naming a session for a command that writes.
 */
function placeOf(pid: number, open: SessionRow[]): CallerPlace {
  const me = terminalOf(pid);
  if (!me?.tty) return "none";
  for (const s of open) {
    for (const [p, start] of [
      [s.agent_pid, s.agent_pid_start],
      [s.ui_pid, s.ui_pid_start],
    ] as const) {
      if (p && processAlive(p, start) && terminalOf(p)?.session === me.session) return "agent-session";
    }
  }
  return "terminal";
}

/** Whether `pid` runs at a terminal no live agent shares (decision 0045): a person's, for a person's switches. */
export function atPersonsTerminal(db: Db, pid: number): boolean {
  return placeOf(pid, openSessions(db)) === "terminal";
}

/** A named session judged against the ancestry (core/sessions/identity.ts): it stands, is overruled, or is refused. */
function judged(
  db: Db,
  req: ResolveRequest,
  n: { s: SessionRow; via: NamedVia },
  above: SessionRow[][],
  open: SessionRow[],
): Resolved {
  const nearest = above[0] ?? [];
  // Only an un-nested caller that writes for the session it names needs to show where it runs.
  const outside = nearest.length === 0 && req.command !== undefined;
  const namedLive = outside && isLive(livenessFacts(n.s), Date.now(), req.freshnessSeconds);
  const place = namedLive ? placeOf(req.pid, open) : "terminal";
  const verdict = decideIdentity({
    named: { id: n.s.id, name: n.s.name, via: n.via },
    nearest,
    enclosing: above.slice(1).some((level) => level.some((s) => s.id === n.s.id)),
    within: nearest.length > 0 && runsWithin(n.s, nearest[0]!),
    command: req.command ?? null,
    place,
    namedLive,
  });
  if (!verdict.allow) {
    refused(db, req, n, nearest[0] ?? null, place);
    throw new TandemError(verdict.reason);
  }
  if (verdict.acts === "named") return { session: n.s, via: n.via };
  return {
    session: nearest[0]!,
    via: "process",
    ...(verdict.rule === "ancestry" ? { note: verdict.note } : {}),
  };
}

/** Records the refusal: who was named, and the agent the caller runs inside, or where it ran instead. */
function refused(
  db: Db,
  req: ResolveRequest,
  n: { s: SessionRow; via: NamedVia },
  actual: SessionRow | null,
  place: CallerPlace,
): void {
  const data = {
    claimed: n.s.id,
    actual: actual?.id ?? null,
    command: req.command!,
    via: n.via,
    ...(place === "terminal" ? {} : { place, pid: req.pid }),
  };
  write(db, (tx) => append(tx, { kind: "identity.refused", session: actual?.id ?? null, data }));
}

/**
 * Finds the session a command runs for (docs/product.md §4.1): what it names (--session,
 * TANDEM_SESSION, the client's session variables) unless its process ancestry places it inside
 * another agent, the caller's process ancestry, the single live session. Returns null when
 * nothing resolves.
 */
export function resolveCaller(db: Db, req: ResolveRequest): Resolved | null {
  if (req.jail !== undefined) {
    const s = sessionById(db, req.jail);
    if (!s)
      throw new TandemError(
        `the jail's session ${req.jail} is not in the store; start a new command from the agent.`,
      );
    return { session: s, via: "jail" };
  }
  const open = openSessions(db);
  const above = agentsAbove(req.pid, open);
  const n = named(db, req, above);
  if (n) return judged(db, req, n, above, open);
  if (above.length > 0) return { session: above[0]![0]!, via: "process" };
  if (!req.allowSingleLive) return null;
  const live = sessionViews(db, req.freshnessSeconds).filter((s) => s.live);
  if (live.length !== 1) return null;
  return { session: open.find((s) => s.id === live[0]!.id)!, via: "single-live" };
}

/** For CLI commands: the caller's session or a usage error naming --session. */
export function requireCaller(db: Db, req: ResolveRequest): Resolved {
  const r = resolveCaller(db, req);
  if (r) return r;
  // Nothing names an agent, so the reader is taken for a person (cli/printer.ts readerOf).
  throw new UsageError(
    `cannot tell which agent session this is; run it from the agent's own shell, or, as a person, pass --session <name or id> (see ${spanned(req.printerFor("person"), "sessions")}).`,
  );
}
