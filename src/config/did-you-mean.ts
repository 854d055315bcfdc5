/**
 * "Did you mean …" for a misspelt key or value: a candidate is a near miss when it is within two
 * edits of the word (a swap of neighbours counts as one), or when the two share a long prefix
 * (`freshnessSecs` → `freshnessSeconds` is three edits, but plainly the same word). Case is ignored.
 */

/** Edits (insert, delete, substitute, swap neighbours) turning `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0]!.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]!.push(best);
    }
  }
  return rows[a.length]![b.length]!;
}

function sharedPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

const PREFIX_RANK = 3;

/**
 * How near `word` is to `candidate`: 0 for the same word (in another case), 1–2 for that many
 * edits, 3 for a long shared prefix, null for no near miss.
 */
export function nearness(word: string, candidate: string): number | null {
  const a = word.toLowerCase();
  const b = candidate.toLowerCase();
  const d = editDistance(a, b);
  // Short words are all within two edits of each other: a third of the word at most.
  if (d <= 2 && d * 3 <= Math.max(a.length, b.length)) return d;
  const prefix = sharedPrefix(a, b);
  if (prefix >= Math.max(4, Math.ceil(0.6 * Math.min(a.length, b.length)))) return PREFIX_RANK;
  return null;
}

/** The nearest candidate to `word`, the first listed on a tie; null when none is a near miss. */
export function closest(word: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestRank = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    const rank = nearness(word, c);
    if (rank !== null && rank < bestRank) {
      best = c;
      bestRank = rank;
    }
  }
  return best;
}

const parentOf = (path: string) => path.split(".").slice(0, -1).join(".");
const nameOf = (path: string) => path.split(".").at(-1)!;

/**
 * The known key an unknown key `name`, found under `parent` ("" at the top), most likely meant,
 * as a full dotted path: a near-miss name at the same level first, then anywhere (a known key
 * written at the wrong level is a near miss of rank 0).
 */
export function suggestKey(name: string, parent: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const path of known) {
    const rank = nearness(name, nameOf(path));
    if (rank === null || path === (parent ? `${parent}.${name}` : name)) continue;
    // Same level wins a tie; then the shorter path.
    const score = rank * 2 + (parentOf(path) === parent ? 0 : 1) + path.length / 1000;
    if (score < bestScore) {
      best = path;
      bestScore = score;
    }
  }
  return best;
}
