/** Redirections: which ones write a file, and the heredoc a command reads. */
import type { Parser } from "./load.js";
import type { ShStmt } from "./syntax.js";
import type { Tree } from "./tree.js";
import type { Arg } from "./types.js";
import { heredocText, isPlainLiteral } from "./words.js";

const WRITE_REDIRECTS = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);

/**
 * What a redirection does with its word: "write" opens it for writing, "dup" is
 * `>&WORD` (a descriptor such as `>&2` or `>&-`, or bash's `>& file`), "read" the rest.
 */
export function redirectKind(parser: Parser, op: number): "write" | "dup" | "read" {
  const spelled = parser.redirOps.get(op);
  if (spelled !== undefined && WRITE_REDIRECTS.has(spelled)) return "write";
  return spelled === ">&" ? "dup" : "read";
}

/** `>&2`, `>&-`, `3>&2-`: a descriptor moved or closed, not a file. */
export function isDescriptor(word: Arg): boolean {
  return word !== null && /^(\d+-?|-)$/.test(word);
}

/** The body of a `<<` / `<<-` heredoc on this statement, if any. */
export function heredocBody(parser: Parser, tree: Tree, stmt: ShStmt): Arg | undefined {
  for (const redir of tree.read(stmt, "Redirs")) {
    const op = parser.redirOps.get(tree.read(redir, "Op"));
    const hdoc = tree.read(redir, "Hdoc");
    if ((op !== "<<" && op !== "<<-") || !hdoc) continue;
    const body = heredocText(tree, hdoc, isPlainLiteral(tree, tree.read(redir, "Word")));
    if (body === null) return null;
    return op === "<<-" ? body.replace(/^\t+/gm, "") : body;
  }
  return undefined;
}
