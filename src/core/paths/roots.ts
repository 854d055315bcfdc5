/**
 * Finalization roots and dispositions (docs/product.md §5.2). Pure: every filesystem and Git fact arrives
 * as data (see root-facts.ts), so the same decisions run at pre-tool-use and at end-turn.
 */
import { isInside, lexicalTarget, relativeKey } from "./lexical.js";

export type Disposition = "git" | "output";

/** One `agents.finalizationRoots` entry as configured (path relative to the coordination root). */
export interface RootEntry {
  path: string;
  disposition: Disposition;
}

/** What the filesystem and Git say about one configured root, keyed by its lexical absolute path. */
export interface RootFact {
  /** The entry's physical path (symlinks resolved); roots are matched against physical targets. */
  physical: string;
  exists: boolean;
  isDirectory: boolean;
  /** The path is the top level of a Git working tree. */
  isRepoTop: boolean;
  /** Top of the enclosing Git working tree (or the Git directory itself), null outside any repository. */
  insideRepo: string | null;
  /** Set when the facts could not be established; the entry then fails closed. */
  error?: string;
}

export interface RootsInput {
  /** The coordination root (physical). */
  root: string;
  /** Top of the Git working tree containing `root`, null when it is not in one. */
  rootRepoTop: string | null;
  entries: readonly RootEntry[];
  facts: Readonly<Record<string, RootFact>>;
}

export interface Root {
  path: string;
  disposition: Disposition;
  /** The coordination root itself, which needs no config entry. */
  implicit: boolean;
  repoTop?: string;
  /** The entry's path as written in config (absent for the implicit root). */
  configured?: string;
}

export type RootProblemKind =
  | "invalid-path"
  | "missing"
  | "not-a-directory"
  | "unverifiable"
  | "not-a-repo-top"
  | "output-inside-repo"
  | "output-contains-git-root"
  | "overlap";

export interface RootProblem {
  /** Physical path of the offending root; null when the configured path could not be read at all. */
  path: string | null;
  configured: string;
  disposition: Disposition;
  kind: RootProblemKind;
  reason: string;
  remedy: string;
}

export interface ResolvedRoots {
  /** The coordination root, the base of every configured path and claim key. */
  base: string;
  roots: Root[];
  /** Invalid entries: excluded from `roots`, but targets under them fail closed. */
  problems: RootProblem[];
}

export type Classification =
  | { kind: "git"; root: string; repoTop: string }
  | { kind: "output"; root: string }
  | { kind: "outside"; reason: string; remedy: string }
  | { kind: "invalid-root"; root: string; reason: string; remedy: string }
  | { kind: "unsupported"; root: string; reason: string; remedy: string };

/** Filesystem question asked only for targets under an output root. */
export interface TargetProbe {
  /** The top of a Git repository nested under `outputRoot` that contains `target`, else null. */
  nestedRepo(outputRoot: string, target: string): string | null;
}

const CONFIG = "agents.finalizationRoots in .tandem/config.jsonc";

interface Candidate {
  entry: RootEntry;
  path: string;
  fact: RootFact;
  problems: RootProblem[];
}

export function resolveRoots(input: RootsInput): ResolvedRoots {
  const problems: RootProblem[] = [];
  const candidates: Candidate[] = [];
  for (const entry of input.entries) {
    const lex = lexicalTarget(entry.path, input.root);
    if (!lex.ok) {
      problems.push(invalidPath(entry, lex.reason));
      continue;
    }
    const fact = input.facts[lex.path];
    if (!fact) {
      problems.push(problem(entry, lex.path, "unverifiable", `no facts were gathered for ${lex.path}`));
      continue;
    }
    const c: Candidate = { entry, path: fact.physical, fact, problems: [] };
    c.problems.push(...entryProblems(c, input));
    candidates.push(c);
  }
  crossCheck(candidates, input);
  const roots = implicitRoot(input);
  for (const c of candidates) {
    problems.push(...c.problems);
    if (c.problems.length === 0 && !roots.some((r) => sameRoot(r, c))) roots.push(toRoot(c));
  }
  return { base: input.root, roots, problems };
}

/** Every root path, valid or not: the places a symlink escape is measured against. */
export function rootPaths(resolved: ResolvedRoots): string[] {
  const invalid = resolved.problems.flatMap((p) => (p.path === null ? [] : [p.path]));
  return [...resolved.roots.map((r) => r.path), ...invalid];
}

/** Classifies a physical absolute target; the innermost root containing it decides. */
export function classify(target: string, resolved: ResolvedRoots, probe: TargetProbe): Classification {
  const bad = innermostProblemPath(target, resolved.problems);
  const root = innermostRoot(target, resolved.roots);
  // At equal depth the invalid entry wins: fail closed rather than guess.
  if (bad !== null && (root === null || bad.length >= root.path.length)) {
    return invalidRoot(bad, resolved.problems);
  }
  if (root === null) return outside(target, resolved.base);
  if (root.disposition === "git") return { kind: "git", root: root.path, repoTop: root.repoTop ?? root.path };
  const nested = probe.nestedRepo(root.path, target);
  if (nested !== null) return unsupported(target, root.path, nested, resolved.base);
  return { kind: "output", root: root.path };
}

function implicitRoot(input: RootsInput): Root[] {
  if (input.rootRepoTop === null) return [];
  return [{ path: input.root, disposition: "git", implicit: true, repoTop: input.rootRepoTop }];
}

function toRoot(c: Candidate): Root {
  const root: Root = {
    path: c.path,
    disposition: c.entry.disposition,
    implicit: false,
    configured: c.entry.path,
  };
  if (c.entry.disposition === "git") root.repoTop = c.path;
  return root;
}

/** A duplicate entry (or a `git` entry naming the coordination root) adds nothing. */
function sameRoot(r: Root, c: Candidate): boolean {
  return r.path === c.path && r.disposition === c.entry.disposition;
}

function entryProblems(c: Candidate, input: RootsInput): RootProblem[] {
  const { fact, entry } = c;
  const at = (kind: RootProblemKind, reason: string, remedy?: string) => [
    problem(entry, c.path, kind, reason, remedy),
  ];
  if (fact.error !== undefined) return at("unverifiable", `it could not be checked: ${fact.error}`);
  if (!fact.exists) return at("missing", `${c.path} does not exist`, missingRemedy(c));
  if (!fact.isDirectory) return at("not-a-directory", `${c.path} is not a directory`);
  if (entry.disposition === "git") return fact.isRepoTop ? [] : at(...notRepoTop(c, input.root));
  if (fact.insideRepo !== null) return at(...outputInRepo(c, fact.insideRepo, input));
  return [];
}

function missingRemedy(c: Candidate): string {
  const fix = `fix or remove the entry ${entryJson(c.entry.path, c.entry.disposition)} in ${CONFIG}`;
  return c.entry.disposition === "output" ? `create the directory ${c.path}, or ${fix}` : fix;
}

function notRepoTop(c: Candidate, base: string): [RootProblemKind, string, string] {
  const top = c.fact.insideRepo;
  if (top === null) {
    return [
      "not-a-repo-top",
      `it is declared "git" but ${c.path} is not inside any Git repository`,
      `if it is intentional non-Git output, declare it ${entryJson(c.entry.path, "output")} in ${CONFIG}; ` +
        "otherwise point the entry at the top level of the Git repository the work belongs to",
    ];
  }
  return [
    "not-a-repo-top",
    `it is declared "git" but ${c.path} is not the top level of a Git repository (it lies inside ${top})`,
    `point the entry at the repository's top level: ${entryJson(relativeKey(base, top), "git")} in ${CONFIG}`,
  ];
}

function outputInRepo(c: Candidate, top: string, input: RootsInput): [RootProblemKind, string, string] {
  const where = c.fact.isRepoTop ? "is itself a Git repository" : `is inside the Git repository at ${top}`;
  const reason = `it is declared "output" (non-Git output) but ${c.path} ${where}`;
  if (top === input.rootRepoTop && isInside(input.root, c.path)) {
    return [
      "output-inside-repo",
      reason,
      `remove this entry from ${CONFIG}: files in the project's own repository are already checked as Git work`,
    ];
  }
  return [
    "output-inside-repo",
    reason,
    `replace this entry in ${CONFIG} with the repository, ${entryJson(relativeKey(input.root, top), "git")}, ` +
      "so its files are checked as Git work",
  ];
}

/** Rules between entries: output roots must not hold Git authority, and overlaps are ambiguous. */
function crossCheck(candidates: Candidate[], input: RootsInput): void {
  const outputs = candidates.filter((c) => c.entry.disposition === "output");
  const gits = candidates.filter((c) => c.entry.disposition === "git");
  for (const out of outputs) {
    if (input.rootRepoTop !== null && isInside(out.path, input.root)) {
      out.problems.push(containsGit(out, input.root, "the coordination root's repository"));
    }
    for (const git of gits) {
      if (!isInside(out.path, git.path) && !isInside(git.path, out.path)) continue;
      git.problems.push(overlap(git, out));
      out.problems.push(
        isInside(out.path, git.path)
          ? containsGit(out, git.path, `git root "${git.entry.path}"`)
          : overlap(out, git),
      );
    }
  }
}

function containsGit(out: Candidate, gitPath: string, what: string): RootProblem {
  return problem(
    out.entry,
    out.path,
    "output-contains-git-root",
    `the output root ${out.path} contains ${what} at ${gitPath}, so it would hide Git work`,
    `narrow the output entry in ${CONFIG} to a directory that holds no Git repository`,
  );
}

function overlap(self: Candidate, other: Candidate): RootProblem {
  const o = other.entry;
  return problem(
    self.entry,
    self.path,
    "overlap",
    `it overlaps ${entryJson(o.path, o.disposition)} with a different disposition (${self.path} and ${other.path})`,
    `give each directory exactly one disposition: remove one of the two entries in ${CONFIG} or make them disjoint`,
  );
}

function invalidPath(entry: RootEntry, why: string): RootProblem {
  return {
    path: null,
    configured: entry.path,
    disposition: entry.disposition,
    kind: "invalid-path",
    reason: `finalization root ${JSON.stringify(entry.path)} is not a usable path: ${why}`,
    remedy: `fix the "path" of this entry in ${CONFIG}`,
  };
}

function problem(
  entry: RootEntry,
  path: string,
  kind: RootProblemKind,
  why: string,
  remedy = `fix or remove the entry ${entryJson(entry.path, entry.disposition)} in ${CONFIG}`,
): RootProblem {
  const reason = `finalization root ${entryJson(entry.path, entry.disposition)} is invalid: ${why}`;
  return { path, configured: entry.path, disposition: entry.disposition, kind, reason, remedy };
}

function entryJson(path: string, disposition: Disposition): string {
  return `{"path": ${JSON.stringify(path)}, "disposition": "${disposition}"}`;
}

function innermostRoot(target: string, roots: readonly Root[]): Root | null {
  let best: Root | null = null;
  for (const r of roots) {
    if (isInside(r.path, target) && (best === null || r.path.length > best.path.length)) best = r;
  }
  return best;
}

function innermostProblemPath(target: string, problems: readonly RootProblem[]): string | null {
  let best: string | null = null;
  for (const p of problems) {
    if (p.path !== null && isInside(p.path, target) && (best === null || p.path.length > best.length)) {
      best = p.path;
    }
  }
  return best;
}

/** Every problem recorded at that path speaks, so one fix does not reveal another later. */
function invalidRoot(path: string, problems: readonly RootProblem[]): Classification {
  const here = problems.filter((p) => p.path === path);
  const uniq = (xs: string[]) => [...new Set(xs)].join("; ");
  return {
    kind: "invalid-root",
    root: path,
    reason: uniq(here.map((p) => p.reason)),
    remedy: uniq(here.map((p) => p.remedy)),
  };
}

function outside(target: string, base: string): Classification {
  return {
    kind: "outside",
    reason: `${target} is outside the authorized roots`,
    remedy:
      `if it belongs to a Git repository, add that repository's top level to ${CONFIG} as ` +
      `{"path": "<top level, relative to ${base}>", "disposition": "git"}; if it is intentional non-Git ` +
      `output, add its directory as {"path": …, "disposition": "output"}; or start the work from the target project`,
  };
}

function unsupported(target: string, root: string, nested: string, base: string): Classification {
  return {
    kind: "unsupported",
    root,
    reason: `${target} lies under the output root ${root} but inside the nested Git repository ${nested}`,
    remedy:
      `narrow the output root so it no longer contains ${nested} and add the repository to ${CONFIG} as ` +
      `${entryJson(relativeKey(base, nested), "git")}, or start the work from the target project`,
  };
}
