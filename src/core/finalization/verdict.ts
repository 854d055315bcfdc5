/**
 * The end-turn Git finalization verdict (docs/product.md §5). Pure: the owned paths arrive already
 * classified (finalization/scope.ts) and every Git fact arrives as data (finalization/facts.ts),
 * so every rule here is a table test away.
 */

import type { TargetFacts } from "../paths/target.js";
import { checkStashes, hiddenFlags, isMine, joinTop, ownedIgnored } from "./owned.js";
import type {
  FinalizationInput,
  Findings,
  GitFacts,
  RepoFacts,
  SyncFacts,
  UnpushedFinding,
  UnsupportedFinding,
  UnsupportedKind,
  UnverifiableFinding,
} from "./types.js";
import { lostWork } from "./unreached.js";

export type {
  CreatedStash,
  DirtyEntry,
  DirtyFinding,
  FinalizationInput,
  Findings,
  GitFacts,
  GitlinkFact,
  GitlinkMismatch,
  HiddenFinding,
  HiddenFlag,
  IgnoredPath,
  IndexTag,
  RepoFacts,
  StashFacts,
  StashFinding,
  SyncFacts,
  UnpushedFinding,
  UnsupportedFinding,
  UnsupportedKind,
  UnverifiableFinding,
} from "./types.js";
export type { LostWhere, UnreachedFacts, UnreachedFinding } from "./unreached.js";

export function emptyFindings(): Findings {
  return {
    dirty: [],
    unpushed: [],
    gitlinkMismatch: [],
    unsupported: [],
    unverifiable: [],
    stashed: [],
    hidden: [],
    unreached: [],
    ignored: [],
    incompleteHistory: false,
  };
}

export function passed(f: Findings): boolean {
  // Ignored paths are shown but are not Git work: they never fail the check.
  const lists = [
    f.dirty,
    f.unpushed,
    f.gitlinkMismatch,
    f.unsupported,
    f.unverifiable,
    f.stashed,
    f.hidden,
    f.unreached,
  ];
  return !f.incompleteHistory && lists.every((l) => l.length === 0);
}

export function evaluate(input: FinalizationInput): Findings {
  const f = emptyFindings();
  f.incompleteHistory = input.incompleteHistory;
  const owned = classifyPaths(input.paths, input.git, f);
  const peers = new Set(input.peerOwned);
  for (const repo of input.git.repos) checkRepo(repo, owned.get(repo.top), peers, f);
  // An owned repository with no facts was never asked anything: that is not a pass.
  for (const [top, paths] of owned) {
    if (input.git.repos.some((r) => r.top === top)) continue;
    for (const path of paths) f.unverifiable.push({ path, reason: `its repository ${top} was not examined` });
  }
  for (const link of input.git.gitlinks) {
    if (link.parentHead !== link.parentIndex || link.parentIndex !== link.childHead)
      f.gitlinkMismatch.push(link);
  }
  for (const b of input.git.blocked) f.unverifiable.push({ repo: b.repo, reason: b.reason });
  checkStashes(input.createdStashes, input.git.stashes, f);
  checkUnreached(input.git, f);
  return sortFindings(f);
}

/** Sorts the classified paths: output passes, Git paths are grouped by repository, the rest are findings. */
function classifyPaths(paths: readonly TargetFacts[], git: GitFacts, f: Findings): Map<string, Set<string>> {
  const owned = new Map<string, Set<string>>();
  for (const p of paths) {
    if (!p.ok) {
      f.unverifiable.push({ path: p.raw, reason: `it cannot be located: ${p.reason}` });
      continue;
    }
    const rejected = rejection(p);
    if (rejected) {
      f.unsupported.push(rejected);
      continue;
    }
    if (p.classification.kind !== "git") continue;
    const repo = git.pathRepo[p.physical];
    if (!repo) f.unverifiable.push({ path: p.physical, reason: "its repository was never examined" });
    else if ("error" in repo) f.unverifiable.push({ path: p.physical, reason: repo.error });
    else owned.set(repo.top, (owned.get(repo.top) ?? new Set()).add(p.physical));
  }
  return owned;
}

type Located = Extract<TargetFacts, { ok: true }>;

const ESCAPE_REMEDY =
  "replace the symlink with a real directory inside the root, or start the work from the project that owns the directory it leads to";

function rejection(p: Located): UnsupportedFinding | null {
  const c = p.classification;
  if (p.escape) {
    return {
      path: p.escape.lexical,
      kind: "symlink-escape",
      reason: `it leads through a symlink out of the root ${p.escape.root} to ${p.physical}`,
      remedy: ESCAPE_REMEDY,
    };
  }
  const at = (kind: UnsupportedKind, reason: string, remedy: string) => ({
    path: p.physical,
    kind,
    reason,
    remedy,
  });
  if (c.kind === "outside") return at("outside-roots", c.reason, c.remedy);
  if (c.kind === "invalid-root") return at("invalid-root", c.reason, c.remedy);
  if (c.kind === "unsupported") return at("nested-repo", c.reason, c.remedy);
  return null;
}

function checkRepo(repo: RepoFacts, owned: Set<string> | undefined, peers: Set<string>, f: Findings): void {
  if (!repo.ok) {
    f.unverifiable.push({ repo: repo.top, reason: repo.error });
    return;
  }
  if (owned) {
    for (const d of repo.dirty) {
      if (isMine(joinTop(repo.top, d.path), owned, peers)) f.dirty.push({ repo: repo.top, ...d });
    }
    for (const t of repo.tags) {
      const flags = hiddenFlags(t.tag);
      if (flags.length > 0 && isMine(joinTop(repo.top, t.path), owned, peers))
        f.hidden.push({ repo: repo.top, path: t.path, flags });
    }
    for (const path of ownedIgnored(repo.top, repo.ignored, owned, peers))
      f.ignored.push({ repo: repo.top, path });
  }
  const sync = syncVerdict(repo.top, repo.sync);
  if (sync.kind === "unpushed") f.unpushed.push(sync.finding);
  if (sync.kind === "unverifiable") f.unverifiable.push({ repo: repo.top, reason: sync.reason });
}

/** Lost versions of owned paths; a path that is dirty now is reported as dirty instead. */
function checkUnreached(git: GitFacts, f: Findings): void {
  for (const facts of git.unreached ?? []) {
    if (facts.error) f.unverifiable.push({ repo: facts.repo, reason: facts.error });
    const repo = git.repos.find((r) => r.top === facts.repo);
    const dirty = new Set(repo?.ok ? repo.dirty.map((d) => d.path) : []);
    for (const lost of lostWork(facts)) if (!dirty.has(lost.path)) f.unreached.push(lost);
  }
}

export type SyncVerdict =
  | { kind: "pushed" }
  | { kind: "unpushed"; finding: UnpushedFinding }
  | { kind: "unverifiable"; reason: string };

/** docs/product.md §5.3 "Synchronized", with no fetch: only local remote-tracking refs are consulted. */
export function syncVerdict(repo: string, s: SyncFacts): SyncVerdict {
  const branch = s.branch;
  // An unborn branch has no commit that could be missing from a remote.
  if (s.head === null) return { kind: "pushed" };
  if (s.ahead !== null && s.upstream !== null) {
    if (s.ahead === 0) return { kind: "pushed" };
    const behind = s.behind ? { behind: s.behind } : {};
    return { kind: "unpushed", finding: { repo, branch, upstream: s.upstream, ahead: s.ahead, ...behind } };
  }
  if (s.containedIn !== null && s.containedIn.length > 0) return { kind: "pushed" };
  // Nowhere to push: a local-only repository is as finished as it can be.
  if (s.remotes !== null && s.remotes.length === 0) return { kind: "pushed" };
  if (s.containedIn === null || s.remotes === null) {
    return { kind: "unverifiable", reason: "whether HEAD is on a remote was not established" };
  }
  const short = s.head.slice(0, 12);
  let reason: string;
  if (branch === null) reason = `detached HEAD ${short} is on no remote-tracking ref`;
  else if (s.upstream !== null)
    reason = `its upstream ${s.upstream} is gone and no remote-tracking ref contains ${short}`;
  else reason = `it has no upstream and no remote-tracking ref contains ${short}`;
  return { kind: "unpushed", finding: { repo, branch, reason } };
}

function sortFindings(f: Findings): Findings {
  const by =
    (...keys: string[]) =>
    (a: object, b: object) => {
      const ka = keys.map((k) => String((a as Record<string, unknown>)[k] ?? "")).join("\0");
      const kb = keys.map((k) => String((b as Record<string, unknown>)[k] ?? "")).join("\0");
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    };
  f.dirty = dedupe(f.dirty, (d) => `${d.repo}\0${d.path}`).sort(by("repo", "path"));
  f.unpushed = dedupe(f.unpushed, (u) => u.repo).sort(by("repo"));
  f.gitlinkMismatch = dedupe(f.gitlinkMismatch, (g) => `${g.superproject}\0${g.path}`).sort(
    by("superproject", "path"),
  );
  f.unsupported = dedupe(f.unsupported, (u) => u.path).sort(by("path"));
  f.stashed = dedupe(f.stashed, (s) => `${s.repo}\0${s.sha}`).sort(by("repo", "ref"));
  f.hidden = dedupe(f.hidden, (h) => `${h.repo}\0${h.path}`).sort(by("repo", "path"));
  f.unreached = dedupe(f.unreached, (u) => `${u.repo}\0${u.path}`).sort(by("repo", "path"));
  f.ignored = dedupe(f.ignored, (i) => `${i.repo}\0${i.path}`).sort(by("repo", "path"));
  const subject = (u: UnverifiableFinding) => ("repo" in u ? u.repo : u.path);
  f.unverifiable = dedupe(f.unverifiable, (u) => `${"repo" in u ? "r" : "p"}:${subject(u)}`).sort((a, b) =>
    subject(a) < subject(b) ? -1 : subject(a) > subject(b) ? 1 : 0,
  );
  return f;
}

function dedupe<T>(xs: T[], key: (x: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const x of xs) if (!seen.has(key(x))) seen.set(key(x), x);
  return [...seen.values()];
}
