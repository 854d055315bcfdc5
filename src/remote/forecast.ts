import { join, relative, sep } from "node:path";
import { holderOf } from "../claims/holders.js";
import { type MergeForecast, readMergeTree, type Side } from "../core/remote/forecast.js";
import { type PresenceDoc, parsePresence } from "../core/remote/presence.js";
import { firstError } from "../core/remote/push-outcome.js";
import { GitError, gitStatus } from "../git/run.js";
import { claimsOf } from "../store/claims/rows.js";
import type { Db } from "../store/db.js";
import { openSessions } from "../store/sessions/rows.js";
import { ALIVE_REFSPEC, readBeats, withBeats } from "./beats.js";
import { listRefs, readDocs } from "./objects.js";

/** The git side of `tandem conflicts`: fetch, read presence documents, ask merge-tree. */
export const SEEN_PRESENCE = "refs/tandem/seen/presence/";

/** Fetches branches, presence and beat refs in one call; the error line when the remote did not answer. */
export function fetchForForecast(repo: string, remote: string, timeoutMs = 20_000): string | null {
  const args = ["fetch", "--quiet", "--no-tags", "--no-write-fetch-head", remote];
  const refspecs = [
    `+refs/heads/*:refs/remotes/${remote}/*`,
    `+refs/tandem/presence/*:${SEEN_PRESENCE}*`,
    ALIVE_REFSPEC,
  ];
  try {
    const res = gitStatus(repo, [...args, ...refspecs], { timeoutMs });
    return res.status === 0 ? null : firstError(res.stderr);
  } catch (err) {
    if (err instanceof GitError) return `no answer within ${timeoutMs / 1000} s`;
    throw err;
  }
}

export function seenPresence(repo: string): PresenceDoc[] {
  const refs = listRefs(repo, SEEN_PRESENCE);
  const texts = readDocs(
    repo,
    refs.map((r) => r.commit),
    "presence.json",
  );
  const docs = texts.flatMap((t) => {
    const d = t === null ? null : parsePresence(t);
    return d ? [d] : [];
  });
  return withBeats(docs, readBeats(repo));
}

/** This checkout's live sessions and their claims, paths relative to the repository top. */
export function localSides(
  db: Db,
  top: string,
  machine: string,
  now: number,
  freshnessSeconds: number,
): Side[] {
  const branch = gitStatus(top, ["symbolic-ref", "-q", "--short", "HEAD"]).stdout.trim() || null;
  return openSessions(db)
    .filter((s) => holderOf(db, s, now, freshnessSeconds).live)
    .map((s) => ({
      machine,
      session: s.name,
      branch,
      task: s.task,
      paths: claimsOf(db, s.id).map((c) => relative(top, join(c.worktree, c.path)).split(sep).join("/")),
    }))
    .filter((s) => s.paths.length > 0);
}

/** The target as a ref: the remote's branch when fetched, else the local one. */
export function targetRef(repo: string, remote: string, target: string): string | null {
  for (const ref of [`refs/remotes/${remote}/${target}`, `refs/heads/${target}`])
    if (gitStatus(repo, ["rev-parse", "--verify", "-q", `${ref}^{commit}`]).status === 0) return ref;
  return null;
}

/**
 * The branch work merges into when none is named: the remote's HEAD (what a clone checks out),
 * else the first of `remote.targetBranches` that exists here or on the remote.
 */
export function defaultTarget(repo: string, remote: string, candidates: readonly string[]): string | null {
  const head = gitStatus(repo, ["symbolic-ref", "-q", `refs/remotes/${remote}/HEAD`]).stdout.trim();
  const prefix = `refs/remotes/${remote}/`;
  if (head.startsWith(prefix)) return head.slice(prefix.length);
  return candidates.find((b) => targetRef(repo, remote, b) !== null) ?? null;
}

/** The branches to forecast: every fetched branch of the remote, and ours, but not the target. */
export function branchesToForecast(repo: string, remote: string, target: string): string[] {
  const remoteBranches = listRefs(repo, `refs/remotes/${remote}/`)
    .map((r) => r.ref)
    .filter((r) => r !== target && r !== `refs/remotes/${remote}/HEAD`);
  const own = gitStatus(repo, ["symbolic-ref", "-q", "HEAD"]).stdout.trim();
  return own && own !== target ? [own, ...remoteBranches] : remoteBranches;
}

/**
 * Merges `branch` into `target` in memory (no work tree, no index); null when git cannot, or when
 * the branch is already in the target (nothing would merge).
 */
export function forecastMerge(repo: string, target: string, branch: string): MergeForecast | null {
  if (gitStatus(repo, ["merge-base", "--is-ancestor", branch, target]).status === 0) return null;
  const res = gitStatus(repo, ["merge-tree", "--write-tree", "--name-only", "-z", target, branch]);
  if (res.status !== 0 && res.status !== 1) return null; // unrelated histories, a missing object
  return readMergeTree(short(target), short(branch), res.status, res.stdout);
}

export const short = (ref: string): string => ref.replace(/^refs\/(heads|remotes)\//, "");
