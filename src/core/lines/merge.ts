/**
 * The three-way line merge (decision 0061): two texts made from one base merge when no hunk of
 * one touches a hunk of the other, a margin of unchanged lines apart; the result holds both.
 */
import { diffLines, type Hunk } from "./diff.js";

export interface Span {
  start: number;
  end: number;
}

/**
 * Two spans of one text touch when they overlap or fewer than `margin` untouched lines lie
 * between them; an empty span (an insertion or a deletion's spot) also touches what it adjoins,
 * since which side of it a neighbour's lines go is then a guess.
 */
export function touches(x: Span, y: Span, margin: number): boolean {
  const edge = x.start === x.end || y.start === y.end ? 1 : 0;
  return x.start < y.end + margin + edge && y.start < x.end + margin + edge;
}

export type Side = "ours" | "theirs";

export interface Clash {
  ours: Hunk;
  theirs: Hunk;
}

export type Merge = { ok: true; lines: string[] } | { ok: false; clashes: Clash[] };

const baseSpan = (h: Hunk): Span => ({ start: h.aStart, end: h.aEnd });

function same(h: Hunk, hl: readonly string[], g: Hunk, gl: readonly string[]): boolean {
  if (h.aStart !== g.aStart || h.aEnd !== g.aEnd || h.bEnd - h.bStart !== g.bEnd - g.bStart) return false;
  for (let i = 0; i < h.bEnd - h.bStart; i++) if (hl[h.bStart + i] !== gl[g.bStart + i]) return false;
  return true;
}

/** Merges `ours` and `theirs`, both made from `base`; a change both sides made alike counts once. */
export function merge3(
  base: readonly string[],
  ours: readonly string[],
  theirs: readonly string[],
  margin = 0,
): Merge {
  const ho = diffLines(base, ours);
  const ht = diffLines(base, theirs).filter((t) => !ho.some((o) => same(o, ours, t, theirs)));
  const clashes: Clash[] = [];
  for (const o of ho)
    for (const t of ht) if (touches(baseSpan(o), baseSpan(t), margin)) clashes.push({ ours: o, theirs: t });
  if (clashes.length > 0) return { ok: false, clashes };
  const all = [...ho.map((h) => ({ h, lines: ours })), ...ht.map((h) => ({ h, lines: theirs }))].sort(
    (x, y) => x.h.aStart - y.h.aStart,
  );
  const out: string[] = [];
  let at = 0;
  for (const { h, lines } of all) {
    out.push(...base.slice(at, h.aStart), ...lines.slice(h.bStart, h.bEnd));
    at = h.aEnd;
  }
  out.push(...base.slice(at));
  return { ok: true, lines: out };
}
