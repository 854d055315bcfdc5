/**
 * Bash brace expansion of one unquoted literal, as written (backslash escapes kept):
 * `{a,b}`, nested lists, `{1..10..2}`, `{01..3}`, `{a..e}`. A brace without a
 * comma or a sequence inside (`{}`, `{x}`) stays as written.
 */

/** The words `raw` expands to, or null when there would be more than `limit`. */
export function expandBraces(raw: string, limit: number): string[] | null {
  const out: string[] = [];
  const expand = (text: string): boolean => {
    const brace = findBrace(text, limit);
    if (brace === null) {
      out.push(text);
      return out.length <= limit;
    }
    const before = text.slice(0, brace.start);
    const after = text.slice(brace.end + 1);
    return brace.items.every((item) => expand(before + item + after));
  };
  return expand(raw) ? out : null;
}

/** Whether a literal opens a brace it does not close (its list goes on in a quoted part). */
export function leavesBraceOpen(raw: string): boolean {
  let depth = 0;
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === "\\") i++;
    else if (raw[i] === "{") depth++;
    else if (raw[i] === "}" && depth > 0) depth--;
  }
  return depth > 0;
}

interface Brace {
  start: number;
  end: number;
  items: string[];
}

/** The first brace that expands: its span and its items. */
function findBrace(text: string, limit: number): Brace | null {
  for (let start = 0; start < text.length; start++) {
    if (text[start] === "\\") {
      start++;
      continue;
    }
    if (text[start] !== "{") continue;
    const split = splitBrace(text, start);
    if (split === null) continue;
    const items = split.items.length > 1 ? split.items : sequence(split.items[0]!, limit);
    if (items !== null) return { start, end: split.end, items };
  }
  return null;
}

/** The items of the brace opening at `start`, split at its top-level commas, and where it closes. */
function splitBrace(text: string, start: number): { end: number; items: string[] } | null {
  const items: string[] = [];
  let depth = 0;
  let from = start + 1;
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\") i++;
    else if (ch === "{") depth++;
    else if (ch === "}" && depth > 0) depth--;
    else if (ch === "," && depth === 0) {
      items.push(text.slice(from, i));
      from = i + 1;
    } else if (ch === "}") {
      items.push(text.slice(from, i));
      return { end: i, items };
    }
  }
  return null;
}

const NUMBERS = /^([-+]?\d+)\.\.([-+]?\d+)(?:\.\.([-+]?\d+))?$/;
const LETTERS = /^([a-zA-Z])\.\.([a-zA-Z])(?:\.\.([-+]?\d+))?$/;

/** `1..5`, `05..10..5`, `a..e`: the sequence's items, or null when `inner` is not one. */
function sequence(inner: string, limit: number): string[] | null {
  const numbers = NUMBERS.exec(inner);
  if (numbers) {
    const [, from, to, step] = numbers;
    const padded = [from!, to!].some((n) => /^[-+]?0\d/.test(n));
    const width = padded ? Math.max(from!.length, to!.length) : 0;
    return steps(Number(from), Number(to), step, limit).map((n) => pad(n, width));
  }
  const letters = LETTERS.exec(inner);
  if (!letters) return null;
  const [, from, to, step] = letters;
  return steps(from!.charCodeAt(0), to!.charCodeAt(0), step, limit).map((code) =>
    // Between Z and a lie [ \ ] ^ _ `: keep them literal in the word.
    String.fromCharCode(code).replace(/[^a-zA-Z]/, "\\$&"),
  );
}

function steps(from: number, to: number, step: string | undefined, limit: number): number[] {
  const size = Math.abs(Number(step ?? 1)) || 1;
  const direction = to >= from ? 1 : -1;
  const out: number[] = [];
  for (let n = from; direction > 0 ? n <= to : n >= to; n += direction * size) {
    out.push(n);
    if (out.length > limit) break;
  }
  return out;
}

function pad(n: number, width: number): string {
  const digits = String(Math.abs(n)).padStart(n < 0 ? width - 1 : width, "0");
  return n < 0 ? `-${digits}` : digits;
}
