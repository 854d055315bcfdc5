/**
 * The Git edge of the end-turn check: turns owned physical paths into the facts
 * core/finalization/verdict.ts decides on. Git runs a fixed number of times per repository, never per path,
 * and never in a directory that no valid `git` root authorizes. A superproject's own status also
 * settles its submodule pointers, so a clean submodule costs no process beyond the two statuses.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import { type WorkTree, workTreeAt } from "../config/git-discovery.js";
import { covers } from "../core/finalization/pathspec-cover.js";
import type { GitFacts, GitlinkFact } from "../core/finalization/verdict.js";
import { isInside, relativeKey } from "../core/paths/lexical.js";
import type { ResolvedRoots } from "../core/paths/roots.js";
import { DirListings } from "../facts/dir-listing.js";
import { stashFacts } from "./hidden-facts.js";
import { type Pointer, type Probe, pointers, probeRepo, type StartedStatus } from "./repo-probe.js";
import { type GitAuthority, msg } from "./run-git.js";

export type { GitAuthority } from "./run-git.js";

/** Inside a valid `git` root, or the top of the repository holding the coordination root. */
export function gitAuthority(resolved: ResolvedRoots): GitAuthority {
  const roots = resolved.roots.filter((r) => r.disposition === "git");
  return (dir) => roots.some((r) => isInside(r.path, dir) || dir === r.repoTop);
}

/**
 * `paths`: the owned Git-classified physical paths. Every git process starts before this returns
 * its promise (spawning is synchronous), so the caller's own work after the call overlaps them.
 */
export function gatherGitFacts(
  paths: readonly string[],
  may: GitAuthority,
  listings = new DirListings(),
  early: StartedStatus | null = null,
): Promise<Omit<GitFacts, "stashes">> {
  return new Gatherer(may, listings, early).run(paths);
}

/** The stash of each repository in which the session created entries (the reflog file, no process). */
export function gatherStashes(repos: readonly string[], may: GitAuthority): Promise<GitFacts["stashes"]> {
  return Promise.all([...new Set(repos)].map((repo) => stashFacts(repo, may)));
}

class Gatherer {
  private readonly trees = new Map<string, WorkTree[]>();
  private readonly status = new Map<string, Promise<Probe>>();
  private readonly reached = new Set<string>();
  private readonly climbed = new Set<string>();
  private readonly pathRepo: Record<string, { top: string } | { error: string }> = {};
  private readonly gitlinks: GitlinkFact[] = [];
  private readonly blocked: { repo: string; reason: string }[] = [];
  private readonly may: GitAuthority;

  constructor(
    may: GitAuthority,
    private readonly listings: DirListings,
    /** A status started before the paths were located (early-status.ts), not yet taken. */
    private early: StartedStatus | null = null,
  ) {
    const known = new Map<string, boolean>();
    this.may = (dir) => known.get(dir) ?? known.set(dir, may(dir)).get(dir)!;
  }

  async run(paths: readonly string[]): Promise<Omit<GitFacts, "stashes">> {
    const groups = this.locate(paths);
    const links = this.linkPaths([...groups.keys()]);
    // Every status starts at once, superprojects' included: they run side by side.
    for (const [top, rels] of groups) {
      this.reached.add(top);
      this.repo(top, rels, links.get(top));
    }
    for (const [top, rels] of links) this.repo(top, [], rels);
    this.early?.abort();
    this.early = null;
    let level = [...groups.keys()];
    while (level.length > 0) level = await this.climb(level);
    const probes = await Promise.all([...this.reached].map((top) => this.status.get(top)!));
    const repos = probes.map((p) => p.facts);
    return { pathRepo: this.pathRepo, repos, gitlinks: this.gitlinks, blocked: this.blocked };
  }

  /**
   * From the filesystem alone: each authorized superproject above a reached repository, with the
   * submodule paths its status should also report on.
   */
  private linkPaths(tops: readonly string[]): Map<string, string[]> {
    const out = new Map<string, Set<string>>();
    for (const top of tops) {
      const chain = this.treesOf(top);
      for (let i = 0; i + 1 < chain.length; i++) {
        const child = chain[i]!;
        const parent = chain[i + 1]!;
        if (child.linked || !this.may(parent.top)) break;
        out.set(parent.top, (out.get(parent.top) ?? new Set()).add(relativeKey(parent.top, child.top)));
      }
    }
    return new Map([...out].map(([top, rels]) => [top, [...rels]]));
  }

  /** Which repository holds each path, from the filesystem alone; grouped by repository top. */
  private locate(paths: readonly string[]): Map<string, string[]> {
    const groups = new Map<string, string[]>();
    const pathRepo = this.pathRepo;
    for (const p of paths) {
      const top = this.treesOf(p)[0]?.top;
      if (top === undefined) pathRepo[p] = { error: "no Git working tree contains it" };
      else if (!this.may(top))
        pathRepo[p] = { error: `its repository ${top} lies outside the authorized roots` };
      else {
        pathRepo[p] = { top };
        const rels = groups.get(top) ?? [];
        rels.push(relativeKey(top, p));
        groups.set(top, rels);
      }
    }
    return groups;
  }

  /**
   * One status per repository (memoized, started at once) over the owned paths and the submodule
   * paths to settle; its branch header also answers the upstream question.
   */
  private repo(top: string, rels: string[], links: string[] = []): Promise<Probe> {
    let probe = this.status.get(top);
    if (!probe) {
      probe = probeRepo(top, rels, links, this.may, this.takeEarly(top, [...rels, ...links]));
      this.status.set(top, probe);
    }
    return probe;
  }

  /** The early status when it is `top`'s and its pathspecs cover `paths`; stopped when it is not. */
  private takeEarly(top: string, paths: string[]): StartedStatus | undefined {
    const early = this.early;
    if (early?.top !== top) return undefined;
    this.early = null;
    if (covers(early.specs, paths)) return early;
    early.abort();
    return undefined;
  }

  /**
   * One level of the superproject walk (docs/product.md §5.3 "Submodules"): every child reached so far is
   * checked against its enclosing repository, batched per parent. Returns the superprojects reached.
   */
  private async climb(children: string[]): Promise<string[]> {
    const byParent = new Map<string, { parent: WorkTree; children: WorkTree[] }>();
    for (const top of children) {
      if (this.climbed.has(top)) continue;
      this.climbed.add(top);
      const chain = this.treesOf(top);
      const [child, parent] = chain;
      if (!child || child.linked || !parent || !(await this.status.get(top))?.facts.ok) continue;
      const entry = byParent.get(parent.top) ?? { parent, children: [] };
      entry.children.push(child);
      byParent.set(parent.top, entry);
    }
    const next: string[] = [];
    const probes: Promise<void>[] = [];
    for (const { parent, children: kids } of byParent.values()) {
      if (this.may(parent.top)) {
        probes.push(this.probeGitlinks(parent, kids).then((any) => void (any && next.push(parent.top))));
      } else if (kids.some((k) => isSubmoduleOf(k, parent))) {
        this.blocked.push({
          repo: parent.top,
          reason: `it is the superproject of ${kids.map((k) => k.top).join(", ")} but lies outside the authorized roots, so Tandem will not run git there to check the submodule pointer and the push state`,
        });
      }
    }
    await Promise.all(probes);
    return next;
  }

  /** Records the gitlink of each child in `parent`; true when `parent` is a superproject of any. */
  private async probeGitlinks(parent: WorkTree, kids: WorkTree[]): Promise<boolean> {
    const rels = kids.map((k) => relativeKey(parent.top, k.top));
    const pending = this.repo(parent.top, [], rels);
    const children = await Promise.all(kids.map(async (k) => this.status.get(k.top)));
    let links: Map<string, Pointer>;
    try {
      const probe = await pending;
      if (!probe.facts.ok) throw new Error(probe.facts.error);
      links = await pointers(parent.top, rels, probe, this.may);
    } catch (err) {
      this.blocked.push({
        repo: parent.top,
        reason: `its submodule pointers could not be read: ${msg(err)}`,
      });
      return false;
    }
    let any = false;
    kids.forEach((_kid, i) => {
      const path = rels[i]!;
      const child = children[i]?.facts;
      const childHead = child?.ok ? child.sync.head : null;
      const link = links.get(path)!;
      // "unchanged": git compared the submodule's HEAD, the index and HEAD itself and found them equal.
      const { head: parentHead, index: parentIndex } =
        link === "unchanged" ? { head: childHead, index: childHead } : link;
      // Neither HEAD nor the index records it: an independent repository nested in the tree.
      if (parentHead === null && parentIndex === null) return;
      this.gitlinks.push({ superproject: parent.top, path, parentHead, parentIndex, childHead });
      any = true;
    });
    if (any) this.reached.add(parent.top);
    return any;
  }

  /** Only a directory can hold `.git`; a listed parent answers without a syscall per file. */
  private mayHoldGit(path: string): boolean {
    const type = path === "/" ? "dir" : this.listings.typeOf(dirname(path), basename(path));
    if (type !== undefined) return type === "dir";
    return existsSync(`${path === "/" ? "" : path}/.git`);
  }

  /** enclosingWorkTrees(), memoized per directory: a thousand paths share a handful of parents. */
  private treesOf(path: string): WorkTree[] {
    const known = this.trees.get(path);
    if (known) return known;
    let out: WorkTree[];
    if (basename(path) === ".git") out = [];
    else {
      // existsSync answers without throwing; workTreeAt failing on a plain file throws and
      // catches, which is what costs when there is one call per owned path.
      const own = this.mayHoldGit(path) ? workTreeAt(path) : null;
      const parent = dirname(path);
      const above = own?.linked || parent === path ? [] : this.treesOf(parent);
      out = own ? [own, ...above] : above;
    }
    this.trees.set(path, out);
    return out;
  }
}

/**
 * Without running git in `parent`: is `child` one of its submodules? True when the child's Git
 * directory is absorbed into the parent's `modules/` (what `git submodule` does) or the parent's
 * .gitmodules names the child's path.
 */
function isSubmoduleOf(child: WorkTree, parent: WorkTree): boolean {
  if (isInside(`${parent.commonDir}/modules`, child.gitDir)) return true;
  const rel = relativeKey(parent.top, child.top);
  try {
    const text = readFileSync(`${parent.top}/.gitmodules`, "utf8");
    return text
      .split("\n")
      .some((l) => /^\s*path\s*=/.test(l) && l.split("=").slice(1).join("=").trim() === rel);
  } catch {
    return false;
  }
}
