/**
 * Provenance that travels (issue 40 item 5, decision 0073): the git trailers a commit carries to
 * name the agent sessions whose lines it holds, and `tandem land` the session that landed it. Pure:
 * the hooks and the land command pass the sessions in and hand the lines to `git interpret-trailers`.
 */

export interface TrailerSession {
  id: string;
  name: string;
  client: string;
  task: string | null;
}

export const SESSION_KEY = "Tandem-Session";
export const CLIENT_KEY = "Tandem-Client";
export const TASK_KEY = "Tandem-Task";
export const LANDED_KEY = "Tandem-Landed-By";

/** A trailer value is one line: newlines (a task's text may hold them) become spaces. */
const oneLine = (s: string): string => s.replace(/\s+/g, " ").trim();

/** `Key: value` lines for each session, in order, each once; a session without a task has no task line. */
export function sessionTrailers(sessions: readonly TrailerSession[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const s of sessions) {
    if (seen.has(s.id)) continue;
    seen.add(s.id);
    out.push(`${SESSION_KEY}: ${oneLine(s.name)} (${s.id})`, `${CLIENT_KEY}: ${oneLine(s.client)}`);
    if (s.task !== null && oneLine(s.task) !== "") out.push(`${TASK_KEY}: ${oneLine(s.task)}`);
  }
  return out;
}

/** The landing session's trailer, or none when a person lands. */
export function landedTrailer(s: TrailerSession | null): string[] {
  return s === null ? [] : [`${LANDED_KEY}: ${oneLine(s.name)} (${s.id}) via ${oneLine(s.client)}`];
}

/**
 * Whether prepare-commit-msg should add trailers for git's `source` argument: not for a merge or
 * squash message git writes itself (the commits it summarises carry their own).
 */
export function trailersFor(source: string | undefined): boolean {
  return source !== "merge" && source !== "squash";
}
