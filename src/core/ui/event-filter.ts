/** The event list's filter: by session and by kind (`claim.acquired`, or a family as `claim.*`). */

export interface EventFilter {
  /** A session id, or null for all. */
  session: string | null;
  /** An exact kind, a `family.*` prefix, or null for all. */
  kind: string | null;
}

export const NO_FILTER: EventFilter = { session: null, kind: null };

/** The kind box's text as a filter value: blank is no filter; surrounding spaces are ignored. */
export function parseKind(text: string): string | null {
  const t = text.trim();
  return t === "" ? null : t;
}

export function kindMatches(pattern: string | null, kind: string): boolean {
  if (pattern === null) return true;
  return pattern.endsWith(".*") ? kind.startsWith(pattern.slice(0, -1)) : kind === pattern;
}

export function eventMatches(f: EventFilter, ev: { session: string | null; kind: string }): boolean {
  return (f.session === null || ev.session === f.session) && kindMatches(f.kind, ev.kind);
}
