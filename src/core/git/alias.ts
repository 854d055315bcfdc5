/**
 * Git aliases, expanded the way git expands them: a subcommand git does not know is
 * looked up as `alias.NAME` (the command line's `-c` first, then the repository's
 * config), its value split into words like git's `split_cmdline`, and put in the
 * subcommand's place. A value starting with `!` runs a shell command: nothing to expand.
 */

/** Aliases by lower-cased name (`alias.y` → `y`), as the repository's config defines them. */
export type AliasMap = ReadonlyMap<string, string>;

/** The aliases in `git config -z --get-regexp '^alias\.'` output, parsed into key → value first. */
export function aliasesOf(config: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of config) {
    if (key.toLowerCase().startsWith("alias.")) out.set(key.slice(6).toLowerCase(), value);
  }
  return out;
}

/** Words of an alias value: blanks separate, quotes group, a backslash takes the next character. */
export function splitAlias(text: string): string[] | null {
  const words: string[] = [];
  let word: string | null = null;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === null && /\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
      continue;
    }
    word ??= "";
    if (c === "\\" && quote !== "'") {
      const next = text[++i];
      if (next === undefined) return null;
      word += next;
    } else if (c === quote) quote = null;
    else if (quote === null && (c === "'" || c === '"')) quote = c;
    else word += c;
  }
  if (quote !== null) return null; // git refuses an unclosed quote
  if (word !== null) words.push(word);
  return words;
}

export type AliasExpansion =
  | { kind: "words"; words: string[] }
  | { kind: "shell"; text: string }
  | { kind: "unreadable"; text: string };

/** What `git NAME` becomes under the alias `value`. */
export function expandAlias(value: string): AliasExpansion {
  if (value.startsWith("!")) return { kind: "shell", text: value.slice(1) };
  const words = splitAlias(value);
  return words === null || words.length === 0
    ? { kind: "unreadable", text: value }
    : { kind: "words", words };
}
