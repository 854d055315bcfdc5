/**
 * The pre-commit verdict (docs/product.md §4.4), pure: given the staged files live peers hold and
 * who is committing, refuse, warn or let through, and say so. TANDEM_BYPASS=1 is a person's
 * switch (decision 0050): an agent that sets it is refused like any agent, the attempt recorded,
 * and no refusal an agent reads mentions it.
 */
import { PLAIN, type Printer, spanned } from "../printed.js";

export interface HeldFile {
  path: string;
  holder: string;
  /** Set when the file is shared by lines (decision 0061): the peer's lines the commit carries. */
  lines?: string;
}

const entry = (f: HeldFile): string =>
  f.lines ? `  ${f.path} ${f.lines} (uncommitted work of ${f.holder})` : `  ${f.path} (held by ${f.holder})`;

/**
 * Who runs `git commit`: `null` when no agent session is among its callers and none is named (a
 * person); `process` when an agent process is among its ancestors; `named` when only its
 * environment names a session, with whether it runs at a terminal no live agent shares (0045).
 */
export type Committer = null | { via: "process" } | { via: "named"; atPersonsTerminal: boolean };

export interface CommitVerdict {
  outcome: "refused" | "warned" | "bypassed";
  /** TANDEM_BYPASS=1 was set by a committer that may not use it: recorded as an attempt. */
  bypassRefused: boolean;
  /** What git prints (the hook's stderr). */
  message: string;
}

/** Only a person may bypass: outside every agent's process tree, at a terminal no agent shares. */
export function mayBypass(committer: Committer): boolean {
  return committer !== null && committer.via === "named" && committer.atPersonsTerminal;
}

export function judgeCommit(
  found: readonly HeldFile[],
  committer: Committer,
  bypass: boolean,
  p: Printer = PLAIN,
): CommitVerdict | null {
  if (found.length === 0) return null;
  const list = found.map(entry).join("\n");
  if (committer === null)
    return {
      outcome: "warned",
      bypassRefused: false,
      message: `tandem: warning: this commit could not be attributed to an agent session; it includes files another live agent session holds:\n${list}\n`,
    };
  const person = mayBypass(committer);
  if (bypass && person)
    return {
      outcome: "bypassed",
      bypassRefused: false,
      message: `tandem: warning: TANDEM_BYPASS=1 is set; it includes files another live agent session holds:\n${list}\n`,
    };
  const holders = [...new Set(found.map((f) => f.holder))].join(", ");
  const shared = [...new Set(found.filter((f) => f.lines).map((f) => f.path))];
  const lines = [
    `tandem: commit refused: these staged files are being edited by another live agent session:\n${list}`,
    shared.length > 0
      ? `Stage only your own lines: \`git restore --staged ${shared.join(" ")}\` then ${spanned(p, "stage", ...shared.map((path) => ({ path })))}, and commit without -a; or wait until ${holders} commits them, or ask the user.`
      : `Unstage them (git restore --staged <path>) and commit only your own files, or wait until ${holders} commits them, or ask the user.`,
  ];
  if (bypass && !person)
    lines.push("TANDEM_BYPASS=1 is not honoured inside an agent session; this attempt was recorded.");
  if (person)
    lines.push("As a person at this terminal you may set TANDEM_BYPASS=1 to commit anyway (recorded).");
  return { outcome: "refused", bypassRefused: bypass && !person, message: `${lines.join("\n")}\n` };
}

/**
 * The variables an agent's shell carries (TANDEM_SESSION, Claude's CLAUDE_PID, each client's
 * session variable; all of them forwarded by the thin client): when the store cannot be read, the
 * only sign of an agent left. `sessionVars` are the clients' ClientSpec.sessionEnv.
 */
export function agentEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  sessionVars: readonly string[],
): boolean {
  const markers = ["TANDEM_SESSION", "CLAUDE_PID", ...sessionVars];
  return markers.some((name) => Boolean(env[name]));
}
