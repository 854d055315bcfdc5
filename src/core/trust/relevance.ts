/**
 * Whether a client's folder trust is a problem here (issue 26). `tandem init` wires every client,
 * so a person who never runs, say, Gemini CLI would see `doctor` fail over a trust prompt they will
 * never meet. Trust counts only for a client installed on this machine or with sessions in this
 * repository; for any other it is an info line saying what to do once it is used.
 */

export interface ClientUse {
  /** The client's command is on PATH. */
  installed: boolean;
  /** The store has a session of this client. */
  hasSessions: boolean;
}

export interface TrustLine {
  level: "ok" | "info" | "problem";
  check: string;
  detail: string;
  fix?: string;
}

export function trustLineFor(line: TrustLine, label: string, use: ClientUse): TrustLine {
  if (line.level !== "problem" || use.installed || use.hasSessions) return line;
  return {
    ...line,
    level: "info",
    detail: `${line.detail} (${label} is not installed here and has no sessions in this repository, so nothing depends on it yet)`,
    ...(line.fix ? { fix: `if you start using ${label} here: ${line.fix}` } : {}),
  };
}
