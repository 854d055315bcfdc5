/**
 * Who a request from inside a jail speaks for (issue 36 §3, decision 0064). The server learns the
 * jail's session from the key the jail alone can read, never from the request's pid, variables or
 * `--session`; this decides what such a request may do. Pure: the server applies it.
 */

/** The session whose jail sent the request (its key matched). */
export interface JailedCaller {
  id: string;
  name: string;
}

export interface JailedRequest {
  args: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  jail: JailedCaller;
}

/** What the attempt was, as recorded: a client's hook, or naming another session. */
export type JailedAttempt = "hook" | "session";

export type JailedVerdict =
  | { kind: "run" }
  | { kind: "refuse"; attempt: JailedAttempt; claimed: string | null; reason: string };

/** Every value the arguments give `--session` (`--session X`, `--session=X`). */
export function sessionFlags(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") break;
    if (a === "--session" && i + 1 < args.length) out.push(args[++i]!);
    else if (a.startsWith("--session=")) out.push(a.slice("--session=".length));
  }
  return out;
}

const isJail = (ref: string, jail: JailedCaller) => ref === jail.id || ref === jail.name;

export function jailedVerdict(r: JailedRequest): JailedVerdict {
  const { jail } = r;
  if (r.args[0] === "hook")
    return {
      kind: "refuse",
      attempt: "hook",
      claimed: null,
      reason: `Tandem refused \`tandem ${r.args.join(" ")}\`: it came from inside ${jail.name}'s jailed command, and a client's hooks come only from the client itself, outside the jail. Nothing was done and the attempt is recorded; to end your session or start a turn, let the client do it.`,
    };
  const named = [...sessionFlags(r.args), ...(r.env.TANDEM_SESSION ? [r.env.TANDEM_SESSION] : [])];
  const other = named.find((ref) => !isJail(ref, jail));
  if (other !== undefined)
    return {
      kind: "refuse",
      attempt: "session",
      claimed: other,
      reason: `Tandem refused \`tandem ${r.args.join(" ")}\`: it names session ${other}, but it runs inside ${jail.name}'s jail, and the kernel vouches only that it is ${jail.name}. Nothing was done and the attempt is recorded; ask ${other}'s agent or the person to do it, or drop --session to act as ${jail.name}.`,
    };
  return { kind: "run" };
}

/**
 * Whose key opened a jail's door: a session's (the hook's command jail) or a `tandem run`'s
 * (decision 0071), known by the pid and start time of the `tandem run` process.
 */
export type JailKeyOf = { kind: "session"; session: string } | { kind: "run"; pid: number; start: string };

/** A hook through a run's door: the session its payload names and whether the store knows it alive. */
export interface RunHookFacts {
  session: string | null;
  known: boolean;
  /** The named session's agent descends from the run. */
  agentInRun: boolean;
  /** The agent behind the call (the client's pid variable, else its ancestry) descends from the run. */
  envPidInRun: boolean | null;
}

/** What the server learned about a request through a run's door, each pid checked against the run's tree. */
export interface RunFacts {
  args: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  /** The run's name, as messages show it (`run-<pid>`). */
  run: string;
  /** The `tandem run` process still lives with the start time its key names. */
  runAlive: boolean;
  /** The thin client's process descends from the run. */
  callerInRun: boolean;
  /** A hook: the session its payload names and, when the store knows it, whether its agent descends from the run. */
  hook: RunHookFacts | null;
  /** Anything else: the run's session whose agent is the caller or above it, if any. */
  own: JailedCaller | null;
}

export type RunVerdict =
  | { kind: "hook" }
  | { kind: "run"; session: string }
  | { kind: "refuse"; attempt: JailedAttempt | "process"; claimed: string | null; reason: string };

const refused = (
  attempt: JailedAttempt | "process",
  claimed: string | null,
  command: string,
  why: string,
  todo: string,
): RunVerdict => ({
  kind: "refuse",
  attempt,
  claimed,
  reason: `Tandem refused \`${command}\`: ${why}. Nothing was done and the attempt is recorded; ${todo}`,
});

/**
 * A request through a run's door acts only for sessions whose agent descends from the run: the
 * client's own hooks, and its agent's commands as that agent. Pure.
 */
export function runVerdict(f: RunFacts): RunVerdict {
  const command = `tandem ${f.args.join(" ")}`;
  if (!f.runAlive || !f.callerInRun)
    return refused(
      "process",
      null,
      command,
      `it holds the key of ${f.run}, but ${f.runAlive ? "its process does not descend from that run" : "that run has ended"}`,
      "ask the person to start the client again under Tandem's run command.",
    );
  if (f.hook) {
    const { session, known, agentInRun, envPidInRun } = f.hook;
    if ((known && !agentInRun) || envPidInRun === false)
      return refused(
        "hook",
        session,
        command,
        `it comes from inside ${f.run}, but the session or agent process it names is not one the run started`,
        "a client's hooks speak only for the client that sends them.",
      );
    return { kind: "hook" };
  }
  if (!f.own)
    return refused(
      "session",
      null,
      command,
      `it comes from inside ${f.run}, and no session of that run is above it`,
      "run it from the agent's own shell, once the client has started its session.",
    );
  const v = jailedVerdict({ args: f.args, env: f.env, jail: f.own });
  return v.kind === "run" ? { kind: "run", session: f.own.id } : v;
}
