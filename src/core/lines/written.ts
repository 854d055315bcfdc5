/**
 * When a hunk was written (decision 0074): the first and the last write known to have touched its
 * lines, each with its time and, when a hook credited it, the writer's turn (the event sequence
 * number of the session's prompt in force). A later edit that extends or merges hunks keeps the
 * earliest first and the latest last, so a window can tell a hunk written wholly inside it from one
 * that is only partly.
 */

export interface Stamp {
  /** Milliseconds since the epoch. */
  at: number;
  /** The prompt's event sequence number; null when no hook said which turn wrote it. */
  turn: number | null;
}

export interface Written {
  first: Stamp;
  last: Stamp;
}

/** A write of unknown time: before anything a window can start at. */
export const LONG_AGO: Stamp = { at: 0, turn: null };

/** One write: first and last alike. */
export const once = (s: Stamp): Written => ({ first: s, last: s });

const earlier = (a: Stamp, b: Stamp): Stamp => (b.at < a.at ? b : a);
const later = (a: Stamp, b: Stamp): Stamp => (b.at > a.at ? b : a);

/** The span of several writes: the earliest first, the latest last. Null for none. */
export function spanOf(all: readonly Written[]): Written | null {
  if (all.length === 0) return null;
  let out = all[0]!;
  for (const w of all.slice(1)) out = { first: earlier(out.first, w.first), last: later(out.last, w.last) };
  return out;
}
