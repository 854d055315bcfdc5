/**
 * The Git edge of issue 37.4: versions of owned paths in commits that neither HEAD nor any
 * remote-tracking ref reaches. The cheap signal comes first and costs no process: the tail of the
 * worktree's HEAD reflog since the session started, plus the session's stash entries that left the
 * stash. Only when that signal names a commit the reflog cannot prove is behind HEAD does git run
 * (rev-list, then one log and a few small queries), so the usual committed-and-pushed turn pays a
 * file read. See docs/decisions/0057-unreached-work.md.
 */
import { closeSync, existsSync, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { workTreeAt } from "../config/git-discovery.js";
import {
  type HeadVersion,
  type LostWhere,
  type OrphanVersion,
  type ReflogEntry,
  sessionCommits,
  type UnreachedFacts,
} from "../core/finalization/unreached.js";
import { splitZ } from "../git/run.js";
import { literal } from "../git/status.js";
import { type GitAuthority, lines, runGit } from "./run-git.js";

export interface UnreachedQuery {
  top: string;
  /** HEAD's commit as the status reported it; null on an unborn branch. */
  head: string | null;
  /** Owned paths in the repository that are clean now, relative to its top. */
  rels: readonly string[];
  /** When the session started, ms. */
  since: number;
  /** The session's stash entries no longer in the stash. */
  goneStashes: readonly string[];
}

/** Null when nothing owned can have been left behind (the usual case, decided without git). */
export async function unreachedFacts(q: UnreachedQuery, may: GitAuthority): Promise<UnreachedFacts | null> {
  if (q.rels.length === 0) return null;
  const tree = workTreeAt(q.top);
  if (!tree) return null;
  const sinceSec = Math.floor(q.since / 1000);
  const reflog = existsSync(join(tree.commonDir, "reftable"))
    ? await reftableReflog(q.top, may)
    : readReflogTail(join(tree.gitDir, "logs", "HEAD"), sinceSec);
  const fromReflog = sessionCommits(reflog, sinceSec, q.head);
  const stashes = new Set(q.goneStashes);
  const tips = [...new Set([...fromReflog, ...stashes])];
  if (tips.length === 0) return null;
  const git = (args: string[]) => runGit(q.top, args, may);
  const notReached = ["--not", "--remotes", ...(q.head ? [q.head] : [])];
  const [walk, remotes] = await Promise.all([
    git(["rev-list", "--parents", "--ignore-missing", ...tips, ...notReached]),
    git(["for-each-ref", "--count=1", "--format=%(refname)", "refs/remotes"]),
  ]);
  // A repository with nowhere to push is as finished as it can be (core/finalization/verdict.ts).
  if (remotes.trim() === "") return null;
  const parents = new Map(lines(walk).map((l) => [l.split(" ")[0]!, l.split(" ").slice(1)]));
  const origin = new Map<string, string | null>();
  for (const t of tips) {
    if (!parents.has(t)) continue;
    origin.set(t, stashes.has(t) ? t : null);
    // A stash's untracked files live in its third parent, a root commit of their own.
    const untracked = stashes.has(t) ? parents.get(t)![2] : undefined;
    if (untracked && parents.has(untracked)) origin.set(untracked, t);
  }
  if (origin.size === 0) return null;
  const changed = await changedPaths(q.top, [...origin.keys()], q.rels, may);
  if (changed.length === 0) return null;
  const paths = [...new Set(changed.map((c) => c.path))];
  const minTime = Math.min(...changed.map((c) => c.time));
  const reflogOnly = [...new Set(changed.filter((c) => origin.get(c.sha) === null).map((c) => c.sha))];
  const [head, branches] = await Promise.all([
    headVersions(q.top, q.head, paths, minTime, may),
    Promise.all(reflogOnly.map(async (sha) => [sha, await localBranches(q.top, sha, may)] as const)),
  ]);
  const onBranches = new Map(branches);
  const where = (sha: string): LostWhere => {
    const stash = origin.get(sha);
    if (stash) return { kind: "stash", stash };
    const names = onBranches.get(sha) ?? [];
    return names.length > 0 ? { kind: "branch", branches: names } : { kind: "reflog" };
  };
  const orphans: OrphanVersion[] = changed.map((c) => ({ ...c, where: where(c.sha) }));
  // A stash is restored as a whole: name the entry, not its untracked-files commit.
  for (const o of orphans) if (o.where.kind === "stash") o.sha = o.where.stash;
  return { repo: q.top, orphans, head };
}

type Changed = Omit<OrphanVersion, "where">;

/** What each commit changed among the owned paths, against its first parent (all of a root commit). */
async function changedPaths(
  top: string,
  shas: string[],
  rels: readonly string[],
  may: GitAuthority,
): Promise<Changed[]> {
  const args = ["log", "--no-walk=unsorted", "--diff-merges=first-parent", "--root", "--no-renames"];
  const fmt = ["--format=%x01%H %ct", "--raw", "--no-abbrev", "-z"];
  const out = await runGit(top, [...args, ...fmt, ...shas, "--", ...rels.map(literal)], may);
  const found: Changed[] = [];
  for (const chunk of out.split("\x01").slice(1)) {
    const [header = "", ...rest] = records(chunk);
    const [sha = "", time = "0"] = header.split(" ");
    for (let i = 0; i + 1 < rest.length; i += 2) {
      const meta = rest[i]!.trim().split(" ");
      const blob = meta[3] ?? "";
      const path = rest[i + 1]!;
      found.push({ path, sha, time: Number(time), blob: /^0+$/.test(blob) ? null : blob });
    }
  }
  return found;
}

/** Each path's blob in HEAD, and the time of HEAD's newest commit touching it since `sinceSec`. */
async function headVersions(
  top: string,
  head: string | null,
  paths: string[],
  sinceSec: number,
  may: GitAuthority,
): Promise<Record<string, HeadVersion>> {
  const out: Record<string, HeadVersion> = Object.fromEntries(
    paths.map((p) => [p, { blob: null, time: null }]),
  );
  if (head === null) return out;
  const specs = ["--", ...paths.map(literal)];
  const [tree, log] = await Promise.all([
    runGit(top, ["ls-tree", "-r", "-z", "--full-tree", head, ...specs], may),
    runGit(
      top,
      ["log", "-z", "--format=%x01%ct", "--name-only", "--no-renames", `--since=${sinceSec}`, head, ...specs],
      may,
    ),
  ]);
  for (const rec of splitZ(tree)) {
    const [meta = "", path = ""] = rec.split("\t");
    if (out[path]) out[path].blob = meta.split(" ")[2] ?? null;
  }
  for (const chunk of log.split("\x01").slice(1)) {
    const [time = "0", ...names] = records(chunk);
    for (const n of names) {
      const v = out[n];
      if (v && (v.time === null || Number(time) > v.time)) v.time = Number(time);
    }
  }
  return out;
}

/** One commit of `log -z`: its format line, then NUL-separated fields, the first after a newline. */
function records(chunk: string): string[] {
  return splitZ(chunk)
    .map((r) => (r.startsWith("\n") ? r.slice(1) : r))
    .filter((r) => r !== "");
}

async function localBranches(top: string, sha: string, may: GitAuthority): Promise<string[]> {
  return lines(
    await runGit(top, ["for-each-ref", "--format=%(refname:short)", `--contains=${sha}`, "refs/heads"], may),
  );
}

/** The entries of a reflog file at or after `sinceSec`, read from its end: a year of history costs a chunk. */
export function readReflogTail(file: string, sinceSec: number): ReflogEntry[] {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return [];
  }
  try {
    const size = fstatSync(fd).size;
    for (let chunk = 64 * 1024; ; chunk *= 4) {
      const start = Math.max(0, size - chunk);
      const buf = Buffer.alloc(size - start);
      readSync(fd, buf, 0, buf.length, start);
      const text = buf.toString("utf8");
      const whole = start === 0 ? text : text.slice(text.indexOf("\n") + 1);
      const entries = whole.split("\n").flatMap((l) => parseReflogLine(l) ?? []);
      if (start === 0 || (entries[0] && entries[0].time < sinceSec)) return entries;
    }
  } finally {
    closeSync(fd);
  }
}

/** `<old> <new> <name> <<email>> <time> <tz>\t<message>` */
export function parseReflogLine(line: string): ReflogEntry | null {
  const tab = line.indexOf("\t");
  const head = (tab === -1 ? line : line.slice(0, tab)).split(" ");
  if (head.length < 4) return null;
  const time = Number(head[head.length - 2]);
  if (!Number.isFinite(time)) return null;
  return { old: head[0]!, new: head[1]!, time, message: tab === -1 ? "" : line.slice(tab + 1) };
}

/** A reftable keeps no reflog file: git lists HEAD's reflog, newest first. */
async function reftableReflog(top: string, may: GitAuthority): Promise<ReflogEntry[]> {
  const out = await runGit(top, ["log", "-g", "-z", "--date=unix", "--format=%H %gd %gs", "HEAD"], may).catch(
    () => "",
  );
  const rows = splitZ(out).map((r) => {
    const [sha = "", at = "", ...msg] = r.split(" ");
    return { sha, time: Number(/\{(\d+)\}/.exec(at)?.[1] ?? 0), message: msg.join(" ") };
  });
  // Oldest first, each entry's old position being the previous entry's new one.
  return rows
    .reverse()
    .map((r, i, all) => ({ old: all[i - 1]?.sha ?? "0", new: r.sha, time: r.time, message: r.message }));
}
