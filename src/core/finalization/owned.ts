/**
 * Whose a path is, and the rules for work Git's status does not show: index flags that hide
 * changes, ignored owned paths, and stash entries. Pure, like core/finalization/verdict.ts which uses them.
 */
import { dirname } from "node:path/posix";
import type { CreatedStash, Findings, HiddenFlag, RepoFacts, StashFacts } from "./types.js";

/** `git ls-files -v`: a lowercase tag is assume-unchanged; `S` (or `s`) is skip-worktree. */
export function hiddenFlags(tag: string): HiddenFlag[] {
  const flags: HiddenFlag[] = [];
  if (tag.toUpperCase() === "S") flags.push("skip-worktree");
  if (tag !== tag.toUpperCase()) flags.push("assume-unchanged");
  return flags;
}

/**
 * Owned paths among the ignored records: a record this session owns (or owns the closest
 * directory of), and every owned path inside an ignored directory record.
 */
export function ownedIgnored(
  top: string,
  ignored: readonly string[],
  owned: Set<string>,
  peers: Set<string>,
): string[] {
  const out: string[] = [];
  for (const rec of ignored) {
    const abs = joinTop(top, rec);
    if (isMine(abs, owned, peers)) out.push(rec);
    else if (rec.endsWith("/")) {
      for (const o of owned) if (o.startsWith(`${abs}/`)) out.push(o.slice(top === "/" ? 1 : top.length + 1));
    }
  }
  return out;
}

/** A created entry still in its repository's stash fails; one dropped or popped is done with. */
export function checkStashes(
  created: readonly CreatedStash[],
  facts: readonly StashFacts[],
  f: Findings,
): void {
  for (const c of created) {
    const repo = facts.find((s) => s.repo === c.repo);
    if (!repo) f.unverifiable.push({ repo: c.repo, reason: "its stash was not examined" });
    else if ("error" in repo) f.unverifiable.push({ repo: c.repo, reason: repo.error });
    else {
      const at = repo.present.indexOf(c.sha);
      if (at !== -1) f.stashed.push({ ...c, ref: `stash@{${at}}` });
    }
  }
}

/**
 * Every path whose owner the verdict asks about (`isMine`): each repository's dirty entries, its
 * flagged index entries and its ignored records, as absolute paths. Peers' paths matter only at or
 * above one of these, so a clean repository needs none of them read.
 */
export function contestedPaths(repos: readonly RepoFacts[]): string[] {
  const out: string[] = [];
  for (const repo of repos) {
    if (!repo.ok) continue;
    for (const d of repo.dirty) out.push(joinTop(repo.top, d.path));
    for (const t of repo.tags) if (hiddenFlags(t.tag).length > 0) out.push(joinTop(repo.top, t.path));
    for (const rec of repo.ignored) out.push(joinTop(repo.top, rec));
  }
  return out;
}

/**
 * A dirty path counts against this session when the closest owned path containing it is the
 * session's own: a peer's file inside a directory this session created stays the peer's.
 */
export function isMine(abs: string, owned: Set<string>, peers: Set<string>): boolean {
  const mine = closest(abs, owned);
  if (mine === null) return false;
  const theirs = closest(abs, peers);
  return theirs === null || mine.length >= theirs.length;
}

function closest(abs: string, set: Set<string>): string | null {
  for (let p = abs; ; p = dirname(p)) {
    if (set.has(p)) return p;
    if (p === "/") return null;
  }
}

export function joinTop(top: string, rel: string): string {
  if (rel === "." || rel === "") return top;
  return `${top === "/" ? "" : top}/${rel.endsWith("/") ? rel.slice(0, -1) : rel}`;
}
