/**
 * Who a Tandem command acts for when it names a session (docs/product.md §4.1, decision 0021).
 * Pure: the caller gathers what the command says and which recorded agent processes are among
 * its ancestors. A name is only words a command can choose; the process it runs inside is not,
 * so inside an agent the ancestry wins.
 */
export type NamedVia = "flag" | "TANDEM_SESSION" | "client-env";

/**
 * Where a caller with no agent among its ancestors runs (decision 0045). A person types into a
 * terminal: `terminal` is a controlling terminal whose session no live agent shares. A process an
 * agent's command left behind (`setsid`, a double fork, `nohup … &`) is re-parented to init, so its
 * ancestry shows no agent: it has no terminal (`none`; setsid drops it, and the clients run their
 * commands without one), or still shares a live agent's terminal session (`agent-session`).
 */
export type CallerPlace = "terminal" | "none" | "agent-session";

export interface IdentityFacts {
  /** The session the command names, and how. */
  named: { id: string; name: string; via: NamedVia };
  /** Live sessions of the nearest recorded agent process among the caller's ancestors (several when one process hosts several). */
  nearest: readonly { id: string; name: string }[];
  /** The named session's agent is an ancestor further up: a client variable that leaked into a nested agent. */
  enclosing: boolean;
  /**
   * The named session's agent is the nearest agent's process (an ended session of it) or runs inside
   * it: an agent it started itself (a nested client, `tandem sub run`), or any agent when the
   * nearest is a process all of them share.
   */
  within: boolean;
  /** The command writes for the session it acts for (claims, task, end of turn, reservations); null when none. */
  command: string | null;
  /** Where the caller runs; only asked when no agent is among its ancestors. */
  place: CallerPlace;
  /** The named session is live (its agent runs, or it was seen lately). */
  namedLive: boolean;
}

export type IdentityVerdict =
  | { allow: true; rule: "person" | "own" | "nested" | "leaked"; acts: "named" | "nearest" }
  | { allow: true; rule: "ancestry"; acts: "nearest"; note: string }
  | { allow: false; rule: "identity" | "detached"; reason: string };

const HOW: Record<NamedVia, string> = {
  flag: "--session",
  TANDEM_SESSION: "TANDEM_SESSION",
  "client-env": "a client's session variable",
};

export function decideIdentity(f: IdentityFacts): IdentityVerdict {
  if (f.nearest.length === 0) {
    // No agent among the ancestors, but nothing shows a person either: what an agent's command left
    // behind looks exactly like this, so it may not write for a live session it names.
    if (f.command !== null && f.namedLive && f.place !== "terminal")
      return { allow: false, rule: "detached", reason: detachedMessage(f.named, f.place, f.command) };
    // A person's terminal (or a script of theirs) names sessions freely.
    return { allow: true, rule: "person", acts: "named" };
  }
  if (f.nearest.some((s) => s.id === f.named.id)) return { allow: true, rule: "own", acts: "named" };
  if (f.within) return { allow: true, rule: "nested", acts: "named" };
  // Clients export their session variables, and a nested agent inherits its parent's: not chosen.
  if (f.named.via === "client-env" && f.enclosing) return { allow: true, rule: "leaked", acts: "nearest" };
  const actual = f.nearest[0]!.name;
  if (f.command !== null) return { allow: false, rule: "identity", reason: identityMessage(f, actual) };
  return {
    allow: true,
    rule: "ancestry",
    acts: "nearest",
    note: `this runs inside ${actual}'s agent process, so it acts as ${actual}, not as ${f.named.name} (named by ${HOW[f.named.via]}).`,
  };
}

function identityMessage(f: IdentityFacts, actual: string): string {
  const named = f.named.name;
  return `this command runs inside ${actual}'s agent process but names session ${named} (by ${HOW[f.named.via]}); an agent acts only as itself, so \`tandem ${f.command}\` changed nothing and the attempt was recorded. Run it without ${HOW[f.named.via]} to act as ${actual}; to change what ${named} holds, ask ${named}'s agent or a person.`;
}

const WHERE: Record<Exclude<CallerPlace, "terminal">, string> = {
  none: "runs outside every agent's process and has no terminal (a process a command left behind, a detached script, a job)",
  "agent-session":
    "runs outside every agent's process but in a live agent's terminal session (a process one of its commands left behind)",
};

function detachedMessage(
  named: IdentityFacts["named"],
  place: Exclude<CallerPlace, "terminal">,
  command: string,
): string {
  const n = named.name;
  return `this command ${WHERE[place]}, yet names the live session ${n} (by ${HOW[named.via]}); only ${n}'s own agent or a person at a terminal writes for it, so \`tandem ${command}\` changed nothing and the attempt was recorded. A person: run it from your terminal. A script an agent runs: run it in the foreground of that agent's command, without naming a session; it then acts as that agent. To change what ${n} holds, ask ${n}'s agent or a person.`;
}
