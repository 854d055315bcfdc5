/**
 * Who wrote each uncommitted hunk (decision 0061). A file's hunks are the diff from its committed
 * base to its current text; each carries its authors. After any change of the text or the base,
 * `attribute` re-derives the hunks and carries every author over by where its lines went, so a
 * commit of some hunks (a new base) keeps the others' authors, and lines nobody vouched for are
 * the unattributed writer's (a person, or a tool Tandem did not see).
 */
import { diffLines, type Hunk, mapPosition } from "./diff.js";
import { type Span, touches } from "./merge.js";
import { LONG_AGO, once, spanOf, type Written } from "./written.js";

/** The author of changes no hook announced: a person's editor, a formatter, an unhooked tool. */
export const UNATTRIBUTED = "unattributed";

/** A hunk from the base (a side) to the current text (b side), with who wrote it and when. */
export interface OwnedHunk extends Hunk, Written {
  owners: string[];
}

const currentSpan = (h: Hunk): Span => ({ start: h.bStart, end: h.bEnd });

/** Where an old hunk's lines sit in the new text. */
function carried(delta: readonly Hunk[], h: OwnedHunk): Span {
  if (h.bStart === h.bEnd) {
    const at = mapPosition(delta, h.bStart, "before");
    return { start: at, end: at };
  }
  const start = mapPosition(delta, h.bStart, "after");
  return { start, end: Math.max(start, mapPosition(delta, h.bEnd, "before")) };
}

/**
 * The hunks of `base` → `next`, authored: an old hunk's authors stay on whatever its lines
 * became, and whatever changed between `previous` and `next` is `author`'s (UNATTRIBUTED when null),
 * written `when` (decision 0074): a hunk spans the writes of every old hunk it took in and this one.
 */
export function attribute(
  base: readonly string[],
  previous: readonly string[],
  old: readonly OwnedHunk[],
  next: readonly string[],
  author: string | null,
  when: Written = once(LONG_AGO),
): OwnedHunk[] {
  const delta = diffLines(previous, next);
  const moved = old.map((h) => ({
    span: carried(delta, h),
    owners: h.owners,
    written: { first: h.first, last: h.last },
  }));
  return diffLines(base, next).map((h) => {
    const owners = new Set<string>();
    const writes: Written[] = [];
    for (const m of moved) {
      if (!touches(m.span, currentSpan(h), 0)) continue;
      for (const o of m.owners) owners.add(o);
      writes.push(m.written);
    }
    if (delta.some((d) => touches(currentSpan(d), currentSpan(h), 0))) {
      owners.add(author ?? UNATTRIBUTED);
      writes.push(when);
    }
    if (owners.size === 0) owners.add(UNATTRIBUTED);
    const { first, last } = spanOf(writes) ?? when;
    return { ...h, owners: [...owners].sort(), first, last };
  });
}

/** The base with only the hunks `keep` accepts applied: what one author's share of the file is. */
export function renderOnly(
  base: readonly string[],
  current: readonly string[],
  hunks: readonly OwnedHunk[],
  keep: (h: OwnedHunk) => boolean,
): string[] {
  const out: string[] = [];
  let at = 0;
  for (const h of hunks) {
    if (!keep(h)) continue;
    out.push(...base.slice(at, h.aStart), ...current.slice(h.bStart, h.bEnd));
    at = h.aEnd;
  }
  out.push(...base.slice(at));
  return out;
}

/** The current text with the hunks `drop` accepts taken back to the base: an author's undo. */
export function withoutHunks(
  base: readonly string[],
  current: readonly string[],
  hunks: readonly OwnedHunk[],
  drop: (h: OwnedHunk) => boolean,
): string[] {
  return renderOnly(base, current, hunks, (h) => !drop(h));
}
