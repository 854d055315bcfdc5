/**
 * The Git edge of the end-turn check: turns owned physical paths into the facts
 * core/finalization.ts decides on. Git runs a fixed number of times per repository, never per path,
 * and never in a directory that no valid `git` root authorizes.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { type WorkTree, workTreeAt } from "../config/git-discovery.js";
import type { DirtyEntry, GitFacts, GitlinkFact, RepoFacts, SyncFacts } from "../core/finalization.js";
import { isInside, relativeKey } from "../core/paths.js";
import type { ResolvedRoots } from "../core/roots.js";
import { gitStatusAsync, splitZ } from "../git/run.js";
import { literal } from "../git/status.js";

/** Whether Tandem may run git with this directory as its working directory. */
export type GitAuthority = (dir: string) => boolean;

/** Inside a valid `git` root, or the top of the repository holding the coordination root. */
export function gitAuthority(resolved: ResolvedRoots): GitAuthority {
  const roots = resolved.roots.filter((r) => r.disposition === "git");
  return (dir) => roots.some((r) => isInside(r.path, dir) || dir === r.repoTop);
}

/** Past this many bytes of pathspecs, one whole-repository status is cheaper and never too long. */
const PATHSPEC_BYTES = 64 * 1024;

export function gatherGitFacts(paths: readonly string[], may: GitAuthority): Promise<GitFacts> {
  return new Gatherer(may).run(paths);
}

class Gatherer {
  private readonly trees = new Map<string, WorkTree[]>();
  private readonly status = new Map<string, Promise<RepoFacts>>();
  private readonly reached = new Set<string>();
  private readonly climbed = new Set<string>();
  private readonly pathRepo: Record<string, { top: string } | { error: string }> = {};
  private readonly gitlinks: GitlinkFact[] = [];
  private readonly blocked: { repo: string; reason: string }[] = [];
  private readonly may: GitAuthority;

  constructor(may: GitAuthority) {
    const known = new Map<string, boolean>();
    this.may = (dir) => known.get(dir) ?? known.set(dir, may(dir)).get(dir)!;
  }

  async run(paths: readonly string[]): Promise<GitFacts> {
    const groups = this.locate(paths);
    for (const [top, rels] of groups) {
      this.reached.add(top);
      this.repo(top, rels);
    }
    let level = [...groups.keys()];
    while (level.length > 0) level = await this.climb(level);
    const repos = await Promise.all([...this.reached].map((top) => this.status.get(top)!));
    return { pathRepo: this.pathRepo, repos, gitlinks: this.gitlinks, blocked: this.blocked };
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

  /** One status per repository (memoized, started at once); its branch header also answers the upstream question. */
  private repo(top: string, rels: string[]): Promise<RepoFacts> {
    let facts = this.status.get(top);
    if (!facts) {
      facts = probeRepo(top, rels, this.may);
      this.status.set(top, facts);
    }
    return facts;
  }

  /**
   * One level of the superproject walk (PRODUCT §5.3 "Submodules"): every child reached so far is
   * checked against its enclosing repository, batched per parent. Returns the superprojects reached.
   */
  private async climb(children: string[]): Promise<string[]> {
    const byParent = new Map<string, { parent: WorkTree; children: WorkTree[] }>();
    for (const top of children) {
      if (this.climbed.has(top)) continue;
      this.climbed.add(top);
      const chain = this.treesOf(top);
      const [child, parent] = chain;
      if (!child || child.linked || !parent || !(await this.status.get(top))?.ok) continue;
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
    const pending = this.repo(parent.top, rels);
    const childHeads = await Promise.all(kids.map(async (k) => this.status.get(k.top)));
    let links: { head: Map<string, string>; index: Map<string, string> };
    try {
      const facts = await pending;
      if (!facts.ok) throw new Error(facts.error);
      links = await gitlinks(parent.top, rels, facts.sync.head !== null, this.may);
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
      const parentHead = links.head.get(path) ?? null;
      const parentIndex = links.index.get(path) ?? null;
      // Neither HEAD nor the index records it: an independent repository nested in the tree.
      if (parentHead === null && parentIndex === null) return;
      const child = childHeads[i];
      const childHead = child?.ok ? child.sync.head : null;
      this.gitlinks.push({ superproject: parent.top, path, parentHead, parentIndex, childHead });
      any = true;
    });
    if (any) this.reached.add(parent.top);
    return any;
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
      const own = existsSync(join(path, ".git")) ? workTreeAt(path) : null;
      const parent = dirname(path);
      const above = own?.linked || parent === path ? [] : this.treesOf(parent);
      out = own ? [own, ...above] : above;
    }
    this.trees.set(path, out);
    return out;
  }
}

async function probeRepo(top: string, rels: string[], may: GitAuthority): Promise<RepoFacts> {
  try {
    const status = parseStatus(await runGit(top, statusArgs(rels), may));
    const sync = status.sync;
    if (sync.head !== null && sync.ahead === null) {
      sync.containedIn = lines(
        await runGit(
          top,
          ["for-each-ref", "--contains", sync.head, "--format=%(refname)", "refs/remotes"],
          may,
        ),
      );
      if (sync.containedIn.length === 0) sync.remotes = lines(await runGit(top, ["remote"], may));
    }
    return { top, ok: true, dirty: status.dirty, sync };
  } catch (err) {
    return { top, ok: false, error: msg(err) };
  }
}

function statusArgs(rels: string[]): string[] {
  const args = ["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all", "--no-renames"];
  // Dirt inside a submodule is checked in the submodule, for owned paths only; the superproject
  // still reports a changed pointer.
  args.push("--ignore-submodules=dirty");
  const specs = rels.map(literal);
  const whole = rels.includes(".") || specs.reduce((n, s) => n + s.length + 1, 0) > PATHSPEC_BYTES;
  return whole ? args : [...args, "--", ...specs];
}

/** Parses `git status --porcelain=v2 --branch -z`. */
export function parseStatus(out: string): { dirty: DirtyEntry[]; sync: SyncFacts } {
  const sync: SyncFacts = {
    head: null,
    branch: null,
    upstream: null,
    ahead: null,
    containedIn: null,
    remotes: null,
  };
  const dirty: DirtyEntry[] = [];
  const records = splitZ(out);
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    if (r.startsWith("# ")) header(r.slice(2), sync);
    else if (r.startsWith("? ")) dirty.push({ path: r.slice(2), state: "??" });
    else if (r.startsWith("1 ")) dirty.push({ path: field(r, 8), state: r.slice(2, 4) });
    else if (r.startsWith("u ")) dirty.push({ path: field(r, 10), state: r.slice(2, 4) });
    else if (r.startsWith("2 ")) {
      dirty.push({ path: field(r, 9), state: r.slice(2, 4) });
      i++; // the rename source follows as its own record
    }
  }
  return { dirty, sync };
}

function header(h: string, sync: SyncFacts): void {
  const [key, ...rest] = h.split(" ");
  const value = rest.join(" ");
  if (key === "branch.oid") sync.head = value === "(initial)" ? null : value;
  else if (key === "branch.head") sync.branch = value === "(detached)" ? null : value;
  else if (key === "branch.upstream") sync.upstream = value;
  else if (key === "branch.ab") {
    const ahead = /^\+(\d+) /.exec(value)?.[1];
    sync.ahead = ahead === undefined ? null : Number(ahead);
  }
}

/** The path after `n` space-separated fields; the path itself may contain spaces. */
function field(record: string, n: number): string {
  let at = 0;
  for (let k = 0; k < n; k++) at = record.indexOf(" ", at) + 1;
  return record.slice(at);
}

/** The commit each child path records in the parent's HEAD tree and in its index (stage 0). */
async function gitlinks(top: string, rels: string[], hasHead: boolean, may: GitAuthority) {
  // ls-tree matches its paths literally (no glob), relative to the top.
  const [indexOut, headOut] = await Promise.all([
    runGit(top, ["ls-files", "-s", "-z", "--", ...rels.map(literal)], may),
    hasHead ? runGit(top, ["ls-tree", "-z", "HEAD", "--", ...rels], may) : Promise.resolve(""),
  ]);
  const index = new Map<string, string>();
  for (const rec of splitZ(indexOut)) {
    const m = /^160000 ([0-9a-f]+) 0\t(.*)$/s.exec(rec);
    if (m) index.set(m[2]!, m[1]!);
  }
  const head = new Map<string, string>();
  for (const rec of splitZ(headOut)) {
    const m = /^160000 commit ([0-9a-f]+)\t(.*)$/s.exec(rec);
    if (m) head.set(m[2]!, m[1]!);
  }
  return { head, index };
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

/**
 * git with `top` as its working directory, only where authorized. The ceiling stops discovery at
 * `top`: a broken `.git` there must be an error, not a silent step up into an enclosing repository.
 */
async function runGit(top: string, args: string[], may: GitAuthority): Promise<string> {
  if (!may(top)) throw new Error(`refusing to run git in ${top}: it lies outside the authorized roots`);
  const res = await gitStatusAsync(top, args, { env: { GIT_CEILING_DIRECTORIES: dirname(top) } });
  if (res.status !== 0) {
    const detail = res.stderr.trim().split("\n")[0] || `exit ${res.status}`;
    throw new Error(`git ${args[0]} failed in ${top}: ${detail}`);
  }
  return res.stdout;
}

function lines(out: string): string[] {
  return out.split("\n").filter((l) => l !== "");
}

function msg(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
