/**
 * Whether a client's session-end hook ends the Tandem session (docs/decisions/0017-copilot-cli.md).
 * Copilot's prompt mode (-p, piped stdin) sends one after every completed run with reason
 * `complete` (or `error`); a `copilot -p --resume <id>` into a session whose interactive screen is
 * still open sends it too, and must not release that screen's claims.
 */
export interface SessionEndFacts {
  /** The payload's reason (null when it gives none). */
  reason: string | null;
  /** The reasons that mark the end of one run rather than of the session (ClientSpec.runEndReasons). */
  runEndReasons: readonly string[];
  /** Whether the session's recorded UI process still runs; null when none is recorded. */
  uiAlive: boolean | null;
  /** Whether the process that sent the hook is that UI process. */
  fromUi: boolean;
}

export function endsSession(f: SessionEndFacts): boolean {
  if (f.reason === null || !f.runEndReasons.includes(f.reason)) return true;
  // A run that ends while another process of the same session lives ends only that run.
  return f.uiAlive !== true || f.fromUi;
}
