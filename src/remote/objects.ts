import { git, gitRaw, gitStatus } from "../git/run.js";

/**
 * Git plumbing for the documents Tandem shares through the remote (docs/decisions/0014): one
 * JSON file in a commit of its own, written and read without a work tree or an index.
 */

/** A fixed identity: these commits are Tandem's bookkeeping, not anyone's work. */
const IDENTITY = {
  GIT_AUTHOR_NAME: "Tandem",
  GIT_AUTHOR_EMAIL: "tandem@localhost",
  GIT_COMMITTER_NAME: "Tandem",
  GIT_COMMITTER_EMAIL: "tandem@localhost",
};

/** Writes `text` as `file` in a parentless commit; returns the commit id. */
export function writeDocCommit(repo: string, file: string, text: string, message: string): string {
  const blob = git(repo, ["hash-object", "-w", "--stdin"], { input: text }).trim();
  const tree = git(repo, ["mktree", "-z"], { input: `100644 blob ${blob}\t${file}\0` }).trim();
  return git(repo, ["commit-tree", tree, "-m", message], { env: IDENTITY }).trim();
}

export interface RefAt {
  ref: string;
  commit: string;
}

/** The refs under `prefix` in the local repository. */
export function listRefs(repo: string, prefix: string): RefAt[] {
  const out = git(repo, ["for-each-ref", "--format=%(objectname) %(refname)", prefix]);
  return out
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const space = line.indexOf(" ");
      return { commit: line.slice(0, space), ref: line.slice(space + 1) };
    });
}

/** The text of `file` in each commit, in one `cat-file --batch`; null where it is missing. */
export function readDocs(repo: string, commits: readonly string[], file: string): (string | null)[] {
  if (commits.length === 0) return [];
  const input = commits.map((c) => `${c}:${file}\n`).join("");
  const out = gitRaw(repo, ["cat-file", "--batch"], { input });
  const texts: (string | null)[] = [];
  let at = 0;
  for (let i = 0; i < commits.length; i++) {
    const eol = out.indexOf(10, at);
    const header = out.toString("utf8", at, eol);
    at = eol + 1;
    const m = /^[0-9a-f]+ blob (\d+)$/.exec(header);
    if (!m) {
      texts.push(null); // "<name> missing" (or not a blob): no document
      continue;
    }
    const size = Number(m[1]);
    texts.push(out.toString("utf8", at, at + size));
    at += size + 1;
  }
  return texts;
}

/** The remote Tandem shares through: `remote.name`, else the current branch's remote, else origin. */
export function remoteOf(repo: string, configured: string | null): string | null {
  const remotes = git(repo, ["remote"]).split("\n").filter(Boolean);
  if (configured) return remotes.includes(configured) ? configured : null;
  const branch = gitStatus(repo, ["symbolic-ref", "-q", "--short", "HEAD"]);
  if (branch.status === 0) {
    const r = gitStatus(repo, ["config", "--get", `branch.${branch.stdout.trim()}.remote`]);
    const name = r.stdout.trim();
    if (r.status === 0 && remotes.includes(name)) return name;
  }
  return remotes.includes("origin") ? "origin" : null;
}
