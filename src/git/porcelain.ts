/**
 * The fields of one `git status --porcelain=v2 -z` record and the path after them. The path is the
 * rest of the record: it may itself contain spaces. A record with fewer fields is malformed.
 */
export function afterFields(record: string, n: number): { fields: string[]; rest: string } {
  let at = 0;
  for (let i = 0; i < n; i++) {
    at = record.indexOf(" ", at) + 1;
    if (at === 0) throw new Error(`malformed git status record: ${JSON.stringify(record.slice(0, 80))}`);
  }
  return { fields: record.slice(0, at - 1).split(" "), rest: record.slice(at) };
}
