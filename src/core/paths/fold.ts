/**
 * Names that one filesystem takes for one file (issue 37.8, decision 0058): on a case-insensitive
 * volume `F.TXT` is `f.txt`, and on a normalising one `é` composed and decomposed are one name. A
 * claim key is compared by its fold; the path as written stays for display.
 */

/** How the repository's filesystem compares names: git's core.ignorecase and core.precomposeunicode. */
export interface FoldRule {
  caseless: boolean;
  normalizes: boolean;
}

export const NO_FOLD: FoldRule = { caseless: false, normalizes: false };

/**
 * Characters folded as themselves although JavaScript's case mappings move them: the dotless ı,
 * whose upper case is I (a Turkic mapping, which filesystems do not apply; CaseFolding.txt gives
 * ı no simple fold).
 */
const KEPT = new Set(["ı"]);

const single = (s: string): boolean => s.length > 0 && [...s].length === 1;

/**
 * Simple (one-to-one) case folding of one code point, as case-insensitive filesystems do it: the
 * lower case of its upper case, so ς, σ and Σ fold alike and ſ folds to s. A mapping to more than
 * one character is not applied: ß stays ß (not "ss"), and İ stays İ (its lower case is i and a
 * combining dot), as in APFS and NTFS.
 */
function foldChar(c: string): string {
  if (KEPT.has(c)) return c;
  const upper = c.toUpperCase();
  if (single(upper)) {
    const back = upper.toLowerCase();
    if (single(back)) return back;
  }
  const lower = c.toLowerCase();
  return single(lower) ? lower : c;
}

/** Folds a whole string code point by code point (surrogate pairs stay whole). */
function foldCase(s: string): string {
  let out = "";
  for (const c of s) out += foldChar(c);
  return out;
}

/**
 * The key a path is compared by under `rule`: NFC where the volume normalises (composed and
 * decomposed spellings meet), simple case folding where it ignores case. Each flag alone does only
 * its own part: NTFS ignores case but keeps `é` and `e` + U+0301 apart.
 */
export function foldPath(path: string, rule: FoldRule): string {
  const composed = rule.normalizes ? path.normalize("NFC") : path;
  return rule.caseless ? foldCase(composed) : composed;
}
