/** The same patterns the grep uses, plus direct statement preparation. */
const PATTERNS: [string, RegExp][] = [
  ["SQL statement", /\b(SELECT|INSERT (OR [A-Z]+ )?INTO|UPDATE [a-z_]+ SET|DELETE FROM)\b/],
  [".prepare(", /\.prepare\(/],
  ["stmt(", /\bstmt\(/],
];

/** What in `text` belongs in src/store/: the names of the patterns it matches. */
export function sqlFindings(text: string): string[] {
  return PATTERNS.filter(([, re]) => re.test(text)).map(([name]) => name);
}
