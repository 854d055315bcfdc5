/** Characters a POSIX shell never treats specially, so a word made only of them needs no quotes. */
const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** Quotes one word for a POSIX shell: single quotes, with `'` written as `'\''`. */
export function shellQuote(word: string): string {
  if (SAFE_WORD.test(word)) return word;
  return `'${word.replaceAll("'", "'\\''")}'`;
}
