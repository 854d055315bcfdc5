/** Redirections: the files they write, and the heredoc a command reads. */
import type { Scope } from "./cwd.js";
import type { Parser } from "./load.js";
import type { ShRedirect, ShStmt } from "./syntax.js";
import type { Walker } from "./walk.js";
import { type Arg, heredocText, isPlainLiteral } from "./words.js";

const WRITE_REDIRECTS = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);

/** Adds the file a redirection writes, and runs the substitutions in its word and heredoc. */
export function walkRedirect(walker: Walker, redir: ShRedirect, scope: Scope): void {
  const op = walker.parser.redirOps.get(redir.Op);
  if (redir.Hdoc) walker.walkWordSubstitutions(redir.Hdoc, scope);
  if (!redir.Word) return;
  if (op !== undefined && WRITE_REDIRECTS.has(op)) {
    walker.addTarget(walker.wordArg(redir.Word, scope), scope);
  } else if (op === ">&") {
    // `>&2` and `>&-` duplicate or close a descriptor; `>& file` is bash for `&> file`.
    const word = walker.wordArg(redir.Word, scope);
    if (word === null || !/^(\d+-?|-)$/.test(word)) walker.addTarget(word, scope);
  } else {
    walker.walkWordSubstitutions(redir.Word, scope);
  }
}

/** The body of a `<<` / `<<-` heredoc on this statement, if any. */
export function heredocBody(parser: Parser, stmt: ShStmt): Arg | undefined {
  for (const redir of stmt.Redirs) {
    const op = parser.redirOps.get(redir.Op);
    if ((op !== "<<" && op !== "<<-") || !redir.Hdoc) continue;
    const body = heredocText(parser.syntax, redir.Hdoc, isPlainLiteral(parser.syntax, redir.Word));
    if (body === null) return null;
    return op === "<<-" ? body.replace(/^\t+/gm, "") : body;
  }
  return undefined;
}
