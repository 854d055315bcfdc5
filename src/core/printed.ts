import { shellQuote } from "./quote.js";

/**
 * Every Tandem command a message prints, rendered for whoever reads it (issue 42, decision 0051):
 * an agent gets the command its own shell runs (src/core/shell/agent-command.ts), a person the
 * command their terminal runs (src/core/shell/person-launcher.ts), and every argument is quoted
 * for a POSIX shell, so a printed command runs as printed, pasted whole.
 */

/** Who reads the message: an agent runs it from its shell tool, a person from their terminal. */
export type Reader = "agent" | "person";

/**
 * One word of a printed command: literal text (a subcommand, a flag, a session name), a path of
 * the repository (relative to its top, as Tandem names files), or a placeholder the reader fills
 * in (`PATH`, `NAME`), printed as written.
 */
export type Word = string | { path: string } | { slot: string };

export interface Printer {
  reader: Reader;
  /** The launcher, as shell text (already quoted), that starts Tandem for this reader. */
  launcher: string;
}

/** A path that starts with `-` would be read as an option: `./` keeps it a path. */
function pathWord(path: string): string {
  return shellQuote(path.startsWith("-") ? `./${path}` : path);
}

function wordText(w: Word): string {
  if (typeof w === "string") return shellQuote(w);
  if ("path" in w) return pathWord(w.path);
  return w.slot;
}

/** `<launcher> <words…>`, each word quoted: the one way a message spells a Tandem command. */
export function printed(p: Printer, ...words: readonly Word[]): string {
  return [p.launcher.trim() || "tandem", ...words.map(wordText)].join(" ");
}

/** The same command in a Markdown code span, as messages quote commands. */
export function spanned(p: Printer, ...words: readonly Word[]): string {
  return `\`${printed(p, ...words)}\``;
}

/** The printer of messages whose reader is unknown (tests, texts built before the reader is). */
export const PLAIN: Printer = { reader: "person", launcher: "tandem" };
