/**
 * Whether a shell command sets another live session's identity (decision 0021): a variable that
 * names a session (TANDEM_SESSION, a client's session variable) and, anywhere in the same command,
 * a word that names a live session other than the caller. Pure, and read from the text rather
 * than the shell reader's assignments, so `env`, `export`, a prefix, and a Python or Node child's
 * `os.environ[...]` all count; quotes and backslashes are dropped first, since bash joins
 * `"TANDEM_SESS"ION` and `ag''ent-x` into the plain words.
 */
export interface ShellIdentityFacts {
  /** The command as the client sent it (any shape: the serialized tool input will do). */
  command: string;
  /** The variables that name a session. */
  variables: readonly string[];
  /** Live sessions other than the caller, each with every word that names it (name, native id, id). */
  others: readonly { name: string; refs: readonly string[] }[];
}

export type ShellIdentityVerdict =
  | { allow: true }
  | { allow: false; rule: "identity"; reason: string; variable: string; claimed: string };

const WORD = /[A-Za-z0-9_.-]+/g;

function words(command: string): Set<string> {
  return new Set(command.replace(/["'\\]/g, "").match(WORD) ?? []);
}

/** Cheap first test for the hook: only a command that mentions a variable needs the sessions. */
export function mentionsIdentity(command: string, variables: readonly string[]): boolean {
  const text = command.replace(/["'\\]/g, "");
  return variables.some((v) => text.includes(v));
}

export function shellIdentity(f: ShellIdentityFacts): ShellIdentityVerdict {
  const seen = words(f.command);
  const variable = f.variables.find((v) => seen.has(v));
  if (variable === undefined) return { allow: true };
  const other = f.others.find((o) => o.refs.some((r) => r !== "" && seen.has(r)));
  if (!other) return { allow: true };
  return {
    allow: false,
    rule: "identity",
    variable,
    claimed: other.name,
    reason: identityShellMessage(variable, other.name),
  };
}

/** The refusal of a command that names another live session: which variable, whom, and what to do. */
export function identityShellMessage(variable: string, claimed: string): string {
  return `Tandem refused this command before it ran: it sets ${variable} to name ${claimed}, another live session. An agent acts only as itself: Tandem finds your session from your own process, so run \`tandem\` commands without ${variable}. To change what ${claimed} holds, ask ${claimed}'s agent or a person.`;
}
