const ESCAPES: Record<string, number> = {
  a: 7,
  b: 8,
  t: 9,
  n: 10,
  v: 11,
  f: 12,
  r: 13,
  '"': 34,
  "\\": 92,
};

/**
 * Decodes one git C-quoted name starting at `text[start]` (the opening quote):
 * backslash escapes and `\ooo` octal bytes, the bytes read as UTF-8. Returns the
 * name and the index after the closing quote, or null when it is not well formed.
 */
export function unquoteAt(text: string, start: number): { name: string; end: number } | null {
  if (text[start] !== '"') return null;
  const bytes: number[] = [];
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') return { name: Buffer.from(bytes).toString("utf8"), end: i + 1 };
    if (ch !== "\\") {
      // Unquoted characters are already text (core.quotePath=false); keep surrogate pairs whole.
      const cp = text.codePointAt(i)!;
      bytes.push(...Buffer.from(String.fromCodePoint(cp), "utf8"));
      if (cp > 0xffff) i++;
      continue;
    }
    const next = text[i + 1];
    if (next === undefined) return null;
    const octal = /^[0-7]{3}/.exec(text.slice(i + 1, i + 4));
    if (octal) {
      bytes.push(Number.parseInt(octal[0], 8) & 0xff);
      i += 3;
    } else if (next in ESCAPES) {
      bytes.push(ESCAPES[next]!);
      i += 1;
    } else return null;
  }
  return null;
}

/** A whole field that may be C-quoted: the decoded name, or the field as it is. */
export function unquoteField(field: string): string {
  if (!field.startsWith('"')) return field;
  const q = unquoteAt(field, 0);
  return q && q.end === field.length ? q.name : field;
}
