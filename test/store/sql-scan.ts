/** The same patterns the grep uses, plus preparing statements, pragmas and transactions by hand. */
const PATTERNS: [string, RegExp][] = [
  ["SQL statement", /\b(SELECT|INSERT (OR [A-Z]+ )?INTO|UPDATE [a-z_]+ SET|DELETE FROM)\b/],
  [".prepare(", /\.prepare\(/],
  ["stmt(", /\bstmt\(/],
  [".pragma(", /\.pragma\(/],
  [".transaction(", /\.transaction\(/],
];

/** What in `text` belongs in src/store/: the names of the patterns it matches. */
export function sqlFindings(text: string): string[] {
  return PATTERNS.filter(([, re]) => re.test(text)).map(([name]) => name);
}
