/**
 * Who a Tandem command acts for when it names a session (docs/product.md §4.1, decision 0021).
 * Pure: the caller gathers what the command says and which recorded agent processes are among
 * its ancestors. A name is only words a command can choose; the process it runs inside is not,
 * so inside an agent the ancestry wins.
 */
export type NamedVia = "flag" | "TANDEM_SESSION" | "client-env";

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
}

export type IdentityVerdict =
  | { allow: true; rule: "person" | "own" | "nested" | "leaked"; acts: "named" | "nearest" }
  | { allow: true; rule: "ancestry"; acts: "nearest"; note: string }
  | { allow: false; rule: "identity"; reason: string };

const HOW: Record<NamedVia, string> = {
  flag: "--session",
  TANDEM_SESSION: "TANDEM_SESSION",
  "client-env": "a client's session variable",
};

export function decideIdentity(f: IdentityFacts): IdentityVerdict {
  // No agent among the ancestors: a person's shell (or a script of theirs) names sessions freely.
  if (f.nearest.length === 0) return { allow: true, rule: "person", acts: "named" };
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
