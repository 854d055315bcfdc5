/**
 * Line diffs (decision 0061): a text is a list of lines, each with its own terminator, so joining
 * them gives the bytes back. Myers' O(ND) walk, after trimming the common ends; past a bound on
 * the edit distance the middle is one hunk, which is never wrong, only coarser.
 */

/** A region where `a` differs from `b`: a's lines [aStart, aEnd) became b's lines [bStart, bEnd). */
export interface Hunk {
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

/** Lines with their terminators: `join(splitLines(t)) === t` for every text. */
export function splitLines(text: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", from)) {
    out.push(text.slice(from, i + 1));
    from = i + 1;
  }
  if (from < text.length) out.push(text.slice(from));
  return out;
}

export const joinLines = (lines: readonly string[]): string => lines.join("");

/** Edit distances beyond this are answered as one hunk: the walk's memory grows with its square. */
export const MAX_EDIT_DISTANCE = 1_000;

function ids(a: readonly string[], b: readonly string[]): [Int32Array, Int32Array] {
  const table = new Map<string, number>();
  const id = (s: string): number => {
    let v = table.get(s);
    if (v === undefined) {
      v = table.size;
      table.set(s, v);
    }
    return v;
  };
  return [Int32Array.from(a, id), Int32Array.from(b, id)];
}

/**
 * Myers' forward walk. Round d's frontier is kept as the window of diagonals -d-1..d+1 it was
 * read from (index k + d + 1), for the walk back; null past the bound.
 */
function walk(a: Int32Array, b: Int32Array): Int32Array[] | null {
  const n = a.length;
  const m = b.length;
  const off = n + m + 1;
  const v = new Int32Array(2 * off + 1);
  const at = (k: number): number => v[off + k] as number;
  const trace: Int32Array[] = [];
  for (let d = 0; d <= Math.min(n + m, MAX_EDIT_DISTANCE); d++) {
    trace.push(v.slice(off - d - 1, off + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? at(k + 1) : at(k - 1) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      // In place: round d writes only diagonals of d's parity and reads only the other's.
      v[off + k] = x;
      if (x >= n && y >= m) return trace;
    }
  }
  return null;
}

/** The matched pairs (x in a, y in b) of the walk, found from the end backwards. */
function backtrack(trace: readonly Int32Array[], n: number, m: number): [number, number][] {
  const pairs: [number, number][] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const w = trace[d] as Int32Array;
    const at = (k: number): number => w[k + d + 1] as number;
    const k = x - y;
    const pk = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const px = at(pk);
    const py = px - pk;
    while (x > px && y > py) pairs.push([--x, --y]);
    if (d > 0) {
      x = px;
      y = py;
    }
  }
  return pairs.reverse();
}

function hunksFromPairs(pairs: readonly [number, number][], n: number, m: number, at: number): Hunk[] {
  const out: Hunk[] = [];
  let x = 0;
  let y = 0;
  for (const [px, py] of [...pairs, [n, m] as [number, number]]) {
    if (px > x || py > y) out.push({ aStart: x + at, aEnd: px + at, bStart: y + at, bEnd: py + at });
    x = px + 1;
    y = py + 1;
  }
  return out;
}

/** The hunks turning `a` into `b`, in order, none touching another (an equal line between). */
export function diffLines(a: readonly string[], b: readonly string[]): Hunk[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const [ia, ib] = ids(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  if (ia.length === 0 && ib.length === 0) return [];
  const whole = [{ aStart: head, aEnd: a.length - tail, bStart: head, bEnd: b.length - tail }];
  if (ia.length === 0 || ib.length === 0) return whole;
  const trace = walk(ia, ib);
  if (!trace) return whole;
  // Both sides' offsets are `head`: the trimmed prefix is common.
  return hunksFromPairs(backtrack(trace, ia.length, ib.length), ia.length, ib.length, 0).map((h) => ({
    aStart: h.aStart + head,
    aEnd: h.aEnd + head,
    bStart: h.bStart + head,
    bEnd: h.bEnd + head,
  }));
}

/**
 * Where a line boundary of `a` lands in `b`. A boundary inside a changed region, or at an
 * insertion, is ambiguous: `before` takes the region's start in `b`, `after` its end.
 */
export function mapPosition(hunks: readonly Hunk[], pos: number, bias: "before" | "after"): number {
  let shift = 0;
  for (const h of hunks) {
    if (pos < h.aStart) break;
    if (pos > h.aEnd) {
      shift = h.bEnd - h.aEnd;
      continue;
    }
    if (h.aStart === h.aEnd || (pos > h.aStart && pos < h.aEnd)) return bias === "before" ? h.bStart : h.bEnd;
    return pos === h.aStart ? h.bStart : h.bEnd;
  }
  return pos + shift;
}
