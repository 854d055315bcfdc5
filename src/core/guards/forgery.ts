import { type Printer, spanned } from "../printed.js";

/**
 * Whether a hook call comes from inside another agent's tool call (docs/product.md §12: only
 * the client runs hooks). Pure: the hook gathers which agent process it runs
 * under and which sessions are recorded for that process.
 */
export interface ForgeryFacts {
  /** The session the payload names, when it is already known. */
  named: { id: string; name: string; agentPid: number | null } | null;
  /** The agent process this hook runs under (client variable or ancestry). */
  agentPid: number | null;
  /** Live sessions whose agent is that process. */
  sessionsOfAgent: readonly { id: string; name: string }[];
}

/** The session that forged the call, or null when it may be genuine. */
export function forger(f: ForgeryFacts): { id: string; name: string } | null {
  if (!f.named || f.agentPid === null || f.named.agentPid === null) return null;
  if (f.named.agentPid === f.agentPid) return null;
  // One process hosting several sessions (a Codex app-server) cannot be told apart: trust it.
  if (f.sessionsOfAgent.some((s) => s.id === f.named!.id)) return null;
  return f.sessionsOfAgent.find((s) => s.id !== f.named!.id) ?? null;
}

export function forgeryMessage(named: string, by: string, p: Printer): string {
  return `this \`tandem hook\` call runs inside ${by}'s own tool call but speaks for session ${named}; only an agent client runs Tandem's hooks, so nothing was recorded. To end your own work use ${spanned(p, "release", { slot: "PATH" })}; to change another session's state, ask a person.`;
}
