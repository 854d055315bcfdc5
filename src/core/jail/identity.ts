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
