/**
 * One repository's facts for the end-turn check: its status over the owned and submodule paths
 * (which also answers the upstream question and settles most gitlinks), the index flags of the
 * owned paths, and the pointers a superproject records for its submodules.
 */

import { coverPaths } from "../core/finalization/pathspec-cover.js";
import type { RepoFacts } from "../core/finalization/verdict.js";
import { parseStatus } from "../core/git/status.js";
import { splitZ } from "../git/run.js";
import { literal, statusArgs } from "../git/status.js";
import { indexTags } from "./hidden-facts.js";
import { type GitAuthority, lines, msg, runGit } from "./run-git.js";
import { type LinkRecord, statusFacts } from "./status-facts.js";

/** A repository's status, and what it proves about the submodule paths it was asked about. */
export interface Probe {
  facts: RepoFacts;
  /** The pointer at `rel` as the status settles it; null when only the index and HEAD can tell. */
  link(rel: string): LinkRecord | "unchanged" | null;
}

/** The commits a superproject records for a submodule path, or "the same as the submodule's HEAD". */
export type Pointer = { head: string | null; index: string | null } | "unchanged";

/** A status already running in `top`, limited to `specs` (null: the whole tree). */
export interface StartedStatus {
  top: string;
  specs: string[] | null;
  out: Promise<string>;
  /** Stops it: its answer is not wanted. */
  abort(): void;
}

/** Starts the status `probeRepo` reads, over `specs` (a cover of the paths it will be asked about). */
export function startStatus(top: string, specs: string[] | null, may: GitAuthority): StartedStatus {
  const stop = new AbortController();
  const out = runGit(top, statusArgsFor(specs), may, stop.signal);
  // Whoever takes it over reports its failure; one stopped or never taken fails no one.
  out.catch(() => undefined);
  return { top, specs, out, abort: () => stop.abort() };
}

/**
 * `rels`: the owned paths in the repository at `top`; `links`: submodule paths to settle there;
 * `started`: that repository's status, already running over a cover of both.
 */
export async function probeRepo(
  top: string,
  rels: string[],
  links: string[],
  may: GitAuthority,
  started?: StartedStatus,
): Promise<Probe> {
  try {
    const specs = started ? started.specs : coverPaths([...rels, ...links]);
    // A status limited to pathspecs that cover `links` settles them (see statusArgsFor).
    const settles = specs !== null && links.length > 0;
    // Changes hidden by skip-worktree or assume-unchanged never reach the status: the index tags
    // of the owned paths are read alongside it, and only where the session owns paths. The read
    // waits a tick, so every repository's status is spawned before any index is parsed.
    const [statusRun, tagsRun] = await Promise.allSettled([
      started ? started.out : runGit(top, statusArgsFor(specs), may),
      rels.length === 0 ? [] : Promise.resolve().then(() => indexTags(top, rels, specs, may)),
    ]);
    // When both fail, the status's error is the one reported, whichever finished first.
    if (statusRun.status === "rejected") throw statusRun.reason;
    if (tagsRun.status === "rejected") throw tagsRun.reason;
    const [out, tags] = [statusRun.value, tagsRun.value];
    const status = statusFacts(parseStatus(out), new Set(links));
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
    return {
      facts: { top, ok: true, dirty: status.dirty, sync, tags, ignored: status.ignored },
      link: (rel) => status.links.get(rel) ?? (settles && links.includes(rel) ? "unchanged" : null),
    };
  } catch (err) {
    return { facts: { top, ok: false, error: msg(err) }, link: () => null };
  }
}

/**
 * The status over `specs`, a few directories covering the owned and submodule paths asked about
 * (core/finalization/pathspec-cover.ts), or, when only the top covers them (null), over the whole tree.
 * Limited, it also lists ignored paths, so a submodule path at or below a pathspec that it does
 * not mention is a tracked gitlink on which the submodule's HEAD, the index and HEAD agree; a
 * whole-repository status is not trusted to (the pointers are then read from the index and HEAD).
 * What else the cover holds is sorted out by owner in core/finalization/verdict.ts.
 */
function statusArgsFor(specs: readonly string[] | null): string[] {
  return statusArgs({
    branch: true,
    // Dirt inside a submodule is checked in the submodule, for owned paths only; the
    // superproject still reports a changed pointer.
    ignoreSubmodules: "dirty",
    // Ignored owned paths are shown as not finalized; matching mode lists an ignored directory once.
    ignored: "matching",
    paths: specs ?? undefined,
  });
}

/**
 * The pointer at each submodule path: from the superproject's status where it settles it, from
 * the index (`ls-files`) and HEAD (`ls-tree`) for the rest.
 */
export async function pointers(top: string, rels: string[], probe: Probe, may: GitAuthority) {
  const out = new Map<string, Pointer>();
  const ask: string[] = [];
  for (const rel of rels) {
    const link = probe.link(rel);
    if (link === null || (link !== "unchanged" && link.kind === "unmerged")) ask.push(rel);
    else if (link === "unchanged") out.set(rel, link);
    else if (link.kind === "independent") out.set(rel, { head: null, index: null });
    else out.set(rel, { head: link.head, index: link.index });
  }
  if (ask.length === 0) return out;
  const hasHead = probe.facts.ok && probe.facts.sync.head !== null;
  const found = await gitlinks(top, ask, hasHead, may);
  for (const rel of ask)
    out.set(rel, { head: found.head.get(rel) ?? null, index: found.index.get(rel) ?? null });
  return out;
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
