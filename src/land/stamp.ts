/**
 * Landing provenance (issue 40 item 5, decision 0073): the commits `tandem land` publishes carry a
 * `Tandem-Landed-By` trailer naming the session that landed them. The range is rewritten as
 * objects only (no worktree): each commit keeps its tree, author and committer, its message gets
 * the trailer from `git interpret-trailers`, and its parent is the rewritten one.
 */
import { git } from "../git/run.js";

interface Parsed {
  tree: string;
  parents: string[];
  /** name, email and date of the `author` and `committer` headers, as git spells them. */
  author: [string, string, string];
  committer: [string, string, string];
  message: string;
}

function identity(line: string): [string, string, string] {
  const m = /^(.*) <([^>]*)> (\d+ [+-]\d{4})$/.exec(line);
  if (!m) throw new Error(`unreadable identity in a commit: ${line}`);
  return [m[1]!, m[2]!, `@${m[3]!}`];
}

function parse(raw: string): Parsed | null {
  const cut = raw.indexOf("\n\n");
  const head = (cut < 0 ? raw : raw.slice(0, cut)).split("\n");
  const value = (key: string) =>
    head.filter((l) => l.startsWith(`${key} `)).map((l) => l.slice(key.length + 1));
  // A signed or re-encoded commit cannot be rewritten faithfully: it lands unstamped.
  if (value("gpgsig").length > 0 || value("encoding").length > 0) return null;
  const tree = value("tree")[0];
  const author = value("author")[0];
  const committer = value("committer")[0];
  if (!tree || !author || !committer) return null;
  return {
    tree,
    parents: value("parent"),
    author: identity(author),
    committer: identity(committer),
    message: cut < 0 ? "" : raw.slice(cut + 2),
  };
}

/**
 * `from..to` rewritten with `trailers` added to every message; old sha → new sha for each commit
 * of the range (a commit already carrying them maps to a copy equal but for its parent). Null, and
 * nothing to use, when `trailers` is empty or the range holds a merge or a commit that cannot be
 * rewritten faithfully: it then lands as it is.
 */
export function stampRange(
  top: string,
  from: string,
  to: string,
  trailers: readonly string[],
): Map<string, string> | null {
  if (trailers.length === 0) return null;
  const shas = git(top, ["rev-list", "--reverse", "--topo-order", `${from}..${to}`, "--"])
    .split("\n")
    .filter(Boolean);
  const parsed = shas.map((sha) => parse(git(top, ["cat-file", "commit", sha])));
  if (parsed.some((p) => p === null || p.parents.length !== 1)) return null;
  const map = new Map<string, string>();
  const args = [
    "interpret-trailers",
    "--if-exists",
    "addIfDifferent",
    ...trailers.flatMap((t) => ["--trailer", t]),
  ];
  parsed.forEach((p, i) => {
    const c = p!;
    const message = git(top, args, { input: c.message });
    const parent = map.get(c.parents[0]!) ?? c.parents[0]!;
    const env = {
      GIT_AUTHOR_NAME: c.author[0],
      GIT_AUTHOR_EMAIL: c.author[1],
      GIT_AUTHOR_DATE: c.author[2],
      GIT_COMMITTER_NAME: c.committer[0],
      GIT_COMMITTER_EMAIL: c.committer[1],
      GIT_COMMITTER_DATE: c.committer[2],
    };
    const sha = git(top, ["commit-tree", c.tree, "-p", parent, "-F", "-"], { input: message, env }).trim();
    map.set(shas[i]!, sha);
  });
  return map;
}
