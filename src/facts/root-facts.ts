/**
 * The filesystem and Git edge of the root classifier: gathers the facts that roots.ts decides on.
 */
import { lstatSync, statSync } from "node:fs";
import { enclosingWorkTrees } from "../config/git-discovery.js";
import { lexicalTarget, relativeKey } from "../core/paths/lexical.js";
import type { RootEntry, RootFact, RootsInput, TargetProbe } from "../core/paths/roots.js";
import { GitError, gitStatus } from "../git/run.js";
import { physicalPath } from "./physical.js";

type RepoOf = { top: string | null; error?: string };

/**
 * Facts for the coordination root (physical) and every configured entry, ready for resolveRoots.
 * Hooks already know the root's repository from discovery and pass `rootRepoTop`, which saves a
 * git process on the hot path; with no entries configured no git runs at all.
 */
export function gatherRootFacts(
  root: string,
  entries: readonly RootEntry[],
  rootRepoTop?: string | null,
): RootsInput {
  const own: RepoOf = rootRepoTop !== undefined ? { top: rootRepoTop } : repoOf(root);
  // Without its repository the coordination root cannot be classified at all; let the caller fail.
  if (own.error !== undefined)
    throw new Error(`cannot tell which Git repository holds ${root}: ${own.error}`);
  const facts: Record<string, RootFact> = {};
  for (const entry of entries) {
    const lex = lexicalTarget(entry.path, root);
    if (lex.ok && !(lex.path in facts)) facts[lex.path] = factFor(lex.path);
  }
  return { root, rootRepoTop: own.top, entries, facts };
}

function factFor(lexical: string): RootFact {
  const phys = physicalPath(lexical);
  const none: RootFact = {
    physical: lexical,
    exists: false,
    isDirectory: false,
    isRepoTop: false,
    insideRepo: null,
  };
  if (!phys.ok) return { ...none, error: phys.reason };
  const base = { ...none, physical: phys.path };
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(phys.path, { throwIfNoEntry: false });
  } catch (err) {
    return { ...base, error: `cannot read ${phys.path} (${(err as NodeJS.ErrnoException).code ?? err})` };
  }
  if (!st) return base;
  if (!st.isDirectory()) return { ...base, exists: true };
  const repo = repoOf(phys.path);
  const fact: RootFact = { ...base, exists: true, isDirectory: true, insideRepo: repo.top };
  fact.isRepoTop = repo.top === phys.path;
  if (repo.error !== undefined) fact.error = repo.error;
  return fact;
}

/**
 * The top of the working tree holding `dir`. Inside a Git directory or a bare repository there is
 * no working tree, so the Git directory stands in: it is still "inside a repository".
 */
function repoOf(dir: string): RepoOf {
  // The usual answer from the filesystem alone (as root discovery does): a git process per
  // configured root cost every end-turn check and every hook of a project with sibling roots.
  const tree = enclosingWorkTrees(dir)[0];
  if (tree) return { top: tree.top };
  try {
    const top = gitStatus(dir, ["rev-parse", "--show-toplevel"]);
    if (top.status === 0) return { top: chomp(top.stdout) };
    if (/not a git repository/i.test(top.stderr)) return { top: null };
    const gitDir = gitStatus(dir, ["rev-parse", "--absolute-git-dir"]);
    if (gitDir.status === 0) return { top: chomp(gitDir.stdout) };
    return { top: null, error: firstLine(top.stderr) };
  } catch (err) {
    if (err instanceof GitError) return { top: null, error: err.message };
    throw err;
  }
}

/**
 * Looks for `.git` at the output root and every directory below it down to the target, outermost
 * first, so the reported repository is the one the output root would otherwise swallow.
 */
export const fsTargetProbe: TargetProbe = {
  nestedRepo(outputRoot: string, target: string): string | null {
    const segs = relativeKey(outputRoot, target).split("/");
    if (segs[0] === "..") return null;
    let dir = outputRoot;
    for (const seg of ["", ...segs.filter((s) => s !== ".")]) {
      if (seg === ".git") return dir;
      dir = seg === "" ? dir : `${dir === "/" ? "" : dir}/${seg}`;
      const mark = probeGit(dir);
      if (mark !== "none") return dir;
      if (!isDir(dir)) return null;
    }
    return null;
  },
};

/** "unknown" (an unreadable directory) counts as a repository: fail closed. */
function probeGit(dir: string): "none" | "repo" | "unknown" {
  try {
    return lstatSync(`${dir}/.git`, { throwIfNoEntry: false }) ? "repo" : "none";
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOTDIR" ? "none" : "unknown";
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/** Git ends the path with one newline; the path itself may end in whitespace, so strip only that. */
function chomp(out: string): string {
  return out.endsWith("\n") ? out.slice(0, -1) : out;
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0] || "git failed";
}
