/**
 * What belongs only in src/store/ (issue 39): SQL in any string literal, in any case, and the
 * better-sqlite3 calls that run it, prepare it, set pragmas or make transactions by hand.
 */
const SQL_SHAPES: RegExp[] = [
  /\bselect\b[\s\S]+\bfrom\b/i,
  /\binsert\s+(or\s+[a-z]+\s+)?into\b/i,
  /\bupdate\s+[a-z_"]+\s+set\b/i,
  /\bdelete\s+from\b/i,
  /\b(create|drop)\s+(unique\s+)?(temp\s+)?(table|index|view|trigger)\b/i,
  /\balter\s+table\b/i,
  // Bare words like "commit" are git's too: transaction control counts in SQL's capitals only.
  /^\s*(BEGIN(\s+(IMMEDIATE|EXCLUSIVE|DEFERRED))?(\s+TRANSACTION)?|COMMIT|ROLLBACK|VACUUM)\s*;?\s*$/,
  /^\s*SELECT\b/,
  /^\s*pragma\s+[a-z_]+/i,
];

const CALLS: [string, RegExp][] = [
  [".prepare(", /\.prepare\(/],
  ["stmt(", /\bstmt\(/],
  [".pragma(", /\.pragma\(/],
  [".transaction(", /\.transaction\(/],
  [".exec(", /\b(db|database|handle|conn)\.exec\(/],
];

// A string literal of any quote; a template's ${…} parts are kept, which SQL shapes do not need.
const LITERAL = /"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`/g;

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/** What in `text` belongs in src/store/: the names of the patterns it matches. */
export function sqlFindings(text: string): string[] {
  const code = withoutComments(text);
  const literals = [...code.matchAll(LITERAL)].map((m) => m[0].slice(1, -1));
  const sql = literals.some((s) => SQL_SHAPES.some((re) => re.test(s))) ? ["SQL statement"] : [];
  return [...sql, ...CALLS.filter(([, re]) => re.test(code)).map(([name]) => name)];
}
