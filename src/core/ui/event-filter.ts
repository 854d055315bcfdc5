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

/** The SQL condition and arguments for the same filter, so server pages and live rows agree. */
export function filterSql(f: EventFilter): { where: string[]; args: string[] } {
  const where: string[] = [];
  const args: string[] = [];
  if (f.session !== null) {
    where.push("session_id = ?");
    args.push(f.session);
  }
  if (f.kind !== null) {
    const family = f.kind.endsWith(".*");
    where.push(family ? "kind >= ? AND kind < ?" : "kind = ?");
    if (family) {
      const prefix = f.kind.slice(0, -1);
      args.push(prefix, `${prefix}\uffff`);
    } else args.push(f.kind);
  }
  return { where, args };
}
