import { type Line, type Seg, type Style, seg } from "./segments.js";
import { clipLeft, padTo, textWidth } from "./text.js";

export interface Column<R> {
  title: string;
  cell: (row: R) => string;
  style?: (row: R) => Style | undefined;
  /** Widest the column gets; below that its content decides. */
  max: number;
  /** Takes the width the other columns leave (at most one per table). */
  flex?: boolean;
  /** The flexible column's readable minimum: narrower columns are dropped to keep it. */
  flexMin?: number;
  align?: "right";
  /** Clip the start instead of the end (paths: the file name is the informative part). */
  keepEnd?: boolean;
  /** When the terminal is too narrow, higher ranks are dropped first; 0 is never dropped. */
  drop: number;
  /** Dropped outright on a narrow board (< 60 columns). */
  wideOnly?: boolean;
}

const FLEX_MIN = 14;

function natural<R>(c: Column<R>, rows: readonly R[]): number {
  const widest = rows.reduce((w, r) => Math.max(w, textWidth(c.cell(r))), textWidth(c.title));
  return Math.min(c.max, widest);
}

function chooseColumns<R>(cols: Column<R>[], rows: readonly R[], width: number, gap: number): Column<R>[] {
  let kept = [...cols];
  const need = () =>
    kept.reduce(
      (n, c) => n + (c.flex ? Math.min(c.flexMin ?? FLEX_MIN, natural(c, rows)) : natural(c, rows)),
      0,
    ) +
    gap * (kept.length - 1);
  while (need() > width) {
    const victim = kept.filter((c) => c.drop > 0).sort((a, b) => b.drop - a.drop)[0];
    if (!victim) break;
    kept = kept.filter((c) => c !== victim);
  }
  return kept;
}

/**
 * Lays rows out in columns that fit `width`: content-sized columns, the flexible
 * one takes the rest, and the least important columns go first when it is tight.
 */
export function table<R>(
  all: Column<R>[],
  rows: readonly R[],
  opts: { width: number; narrow: boolean; header: boolean },
): Line[] {
  const gap = opts.narrow ? 1 : 2;
  const cols = chooseColumns(
    all.filter((c) => !(opts.narrow && c.wideOnly)),
    rows,
    opts.width,
    gap,
  );
  const fixed = cols.filter((c) => !c.flex).reduce((n, c) => n + natural(c, rows), 0);
  const spare = opts.width - fixed - gap * (cols.length - 1);
  const widths = cols.map((c) =>
    c.flex ? Math.max(1, Math.min(spare, natural(c, rows))) : natural(c, rows),
  );
  const sep = seg(" ".repeat(gap));
  const line = (cell: (c: Column<R>, w: number) => Seg): Line =>
    cols.flatMap((c, i) => (i === 0 ? [cell(c, widths[i]!)] : [sep, cell(c, widths[i]!)]));
  const out: Line[] = [];
  if (opts.header) out.push(line((c, w) => seg(padTo(c.title, w), "dim")));
  for (const r of rows) {
    out.push(
      line((c, w) => {
        const text = c.cell(r);
        const shown = c.keepEnd && textWidth(text) > w ? clipLeft(text, w) : text;
        return seg(padTo(shown, w, c.align ?? "left"), c.style?.(r));
      }),
    );
  }
  return out;
}
