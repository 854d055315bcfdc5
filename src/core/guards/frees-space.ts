/**
 * Which shell commands only free space (decision 0065): while the disk is full they may still
 * pass, judged by the usual gates once Tandem's reserve is let go. Deliberately narrow — plain
 * words joined by `&&` or `;`, each an `rm`, `rmdir`, `unlink` or `tandem gc` — since anything
 * else could fill the space freed for the judgement itself. Pure.
 */

/** Characters that make a command more than plain words: expansions, quotes, redirections, globs. */
const NOT_PLAIN = /[$`\\(){}[\]|<>*?~!#"'\n]/;

const REMOVERS = new Set(["rm", "rmdir", "unlink"]);
const RM_FLAGS = /^-(?:[frRvdI]+|-force|-recursive|-verbose|-dir)$/;
/** How an agent's shell starts Tandem (a launcher path ending in tandem, or npx). */
const TANDEM = /(?:^|\/)tandem$/;

export interface FreeingCommand {
  /** The paths the removers name, as written (relative to the command's directory). */
  removes: string[];
}

/** The command's removals when it does nothing but free space; null otherwise. */
export function freeingCommand(command: string): FreeingCommand | null {
  if (NOT_PLAIN.test(command)) return null;
  const parts = command.split(/&&|;/).map((p) => p.trim().split(/\s+/).filter(Boolean));
  if (parts.length === 0 || parts.every((w) => w.length === 0)) return null;
  const removes: string[] = [];
  for (const words of parts) {
    if (words.length === 0) continue;
    const got = removal(words) ?? (isGc(words) ? [] : null);
    if (got === null) return null;
    removes.push(...got);
  }
  return { removes };
}

function removal(words: string[]): string[] | null {
  if (!REMOVERS.has(words[0]!)) return null;
  const paths: string[] = [];
  let flags = true;
  for (const w of words.slice(1)) {
    if (flags && w === "--") flags = false;
    else if (flags && w.startsWith("-")) {
      if (!RM_FLAGS.test(w)) return null;
    } else paths.push(w);
  }
  return paths.length > 0 ? paths : null;
}

function isGc(words: string[]): boolean {
  const at = words[0] === "npx" ? 1 : 0;
  if (!TANDEM.test(words[at] ?? "") || words[at + 1] !== "gc") return false;
  // `--vacuum` rewrites the whole store: it needs as much space again, not less.
  return words.slice(at + 2).every((w) => w !== "--vacuum");
}
