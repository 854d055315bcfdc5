/**
 * A request through a `tandem run`'s door (decision 0071): the run's key says only "this comes
 * from inside run N", so each process the request names is checked against the run's process
 * tree, read from /proc, and the request acts for a session of the run or for nobody. A refusal
 * is recorded as `jail.refused`; the decision is src/core/jail/identity.ts.
 */
import { clientByName } from "../clients/index.js";
import { loadConfig } from "../config/load.js";
import { type JailedCaller, type RunHookFacts, type RunVerdict, runVerdict } from "../core/jail/identity.js";
import { discoverAgent } from "../sessions/discover.js";
import { ancestors, processAlive } from "../sessions/proc.js";
import type { StoreAccess } from "../store/access.js";
import type { Db } from "../store/db.js";
import { append, write } from "../store/ledger/append.js";
import { openSessions, sessionByNative } from "../store/sessions/rows.js";

export interface RunAsk {
  args: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  /** The thin client's pid, as the request says (checked, never believed). */
  pid: number;
  stdin: string;
  run: { pid: number; start: string };
  root: string;
  stateDir: string;
  store: StoreAccess;
}

/** `pid` is the run's process or one of its descendants. */
function inTree(run: number, pid: number | null | undefined): boolean {
  if (!pid || pid <= 0) return false;
  return pid === run || ancestors(pid, 64).some((p) => p.pid === run);
}

/** The run's open session whose agent is the caller or one of its ancestors (the nearest). */
function ownSession(db: Db, run: number, caller: number): JailedCaller | null {
  const chain = [caller, ...ancestors(caller, 64).map((p) => p.pid)];
  const open = openSessions(db).filter((s) => s.agent_pid !== null && inTree(run, s.agent_pid));
  for (const pid of chain) {
    const s = open.find((o) => o.agent_pid === pid);
    if (s) return { id: s.id, name: s.name };
  }
  return null;
}

/** A hook's facts: the session its payload names and the agent behind the call. */
function hookFacts(db: Db, ask: RunAsk): RunHookFacts {
  const [clientName] = ask.args.slice(1);
  const client = clientByName(clientName ?? "");
  if (!client) return { session: null, known: false, agentInRun: false, envPidInRun: null };
  let sessionId: string | null = null;
  try {
    const parsed = client.parse(ask.args[2] ?? "", JSON.parse(ask.stdin));
    sessionId = parsed.ok ? parsed.input.sessionId : null;
  } catch {
    sessionId = null;
  }
  const named = sessionId === null ? undefined : sessionByNative(db, client.name, sessionId);
  const agent = discoverAgent(client, ask.env, ask.pid);
  return {
    session: named?.name ?? sessionId,
    known: named?.agent_pid != null && named.ended_seq === null,
    agentInRun: inTree(ask.run.pid, named?.agent_pid),
    envPidInRun: agent ? inTree(ask.run.pid, agent.pid) : null,
  };
}

/** What the request may do, the refusal recorded before it is answered. */
export function judgeRun(ask: RunAsk): RunVerdict {
  const { config } = loadConfig(ask.root, ask.env);
  const db = ask.store.open(ask.stateDir, { lockSeconds: config.storeLockSeconds });
  try {
    const isHook = ask.args[0] === "hook";
    const own = isHook ? null : ownSession(db, ask.run.pid, ask.pid);
    const v = runVerdict({
      args: ask.args,
      env: ask.env,
      run: `run-${ask.run.pid}`,
      runAlive: processAlive(ask.run.pid, ask.run.start),
      callerInRun: inTree(ask.run.pid, ask.pid),
      hook: isHook ? hookFacts(db, ask) : null,
      own,
    });
    if (v.kind !== "refuse") return v;
    const command = `tandem ${ask.args.join(" ")}`.slice(0, 500);
    write(db, (tx) =>
      append(tx, {
        kind: "jail.refused",
        session: own?.id ?? null,
        data: { attempt: v.attempt, claimed: v.claimed, command },
      }),
    );
    return v;
  } finally {
    ask.store.release(db);
  }
}
