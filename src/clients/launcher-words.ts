/**
 * A launcher as argument words: plain words, single and double quotes and backslash escapes, which
 * is what init's launchers (`tandem`, `npx tandem`, a quoted absolute path) are made of. Nothing is
 * expanded (`~`, `$HOME` stay as written). opencode's plugin starts the words without a shell;
 * doctor checks the first two exist.
 */
export function launcherWords(launcher: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < launcher.length; i++) {
    const ch = launcher[i]!;
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === "\\" && quote === '"' && i + 1 < launcher.length) word += launcher[++i]!;
      else word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      word ??= "";
    } else if (ch === "\\" && i + 1 < launcher.length) {
      word = (word ?? "") + launcher[++i]!;
    } else if (/\s/.test(ch)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? "") + ch;
    }
  }
  if (word !== null) words.push(word);
  return words;
}
