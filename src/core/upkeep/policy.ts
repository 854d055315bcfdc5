/**
 * The bound on saved bytes (docs/decisions/0065): which saved versions `tandem gc` lets go so
 * every file, session and the repository stays within the retention policy. Pure: the store
 * gathers the versions, this decides. What it never lets go: each file's latest version, the
 * newest version its owner's watch compares with, and a version a clobber not yet recovered
 * points at — those are what `tandem recover` gives back.
 */

import type { Config } from "../../config/schema.js";

export interface RetentionPolicy {
  versionsPerFile: number;
  largeFileBytes: number;
  largeFileVersions: number;
  sessionBytes: number;
  repositoryBytes: number;
}

/** The bound the config's `retention.*` keys set. */
export function retentionPolicy(c: Config): RetentionPolicy {
  return {
    versionsPerFile: c.retentionVersionsPerFile,
    largeFileBytes: c.retentionLargeFileBytes,
    largeFileVersions: c.retentionLargeFileVersions,
    sessionBytes: c.retentionSessionBytes,
    repositoryBytes: c.retentionRepositoryBytes,
  };
}

export type VersionKey = [worktree: string, path: string, owner: string, version: number];

export interface SavedVersion {
  key: VersionKey;
  blob: string;
  bytes: number;
  ts: number;
  /** The watch's version (the newest kept one) or one a clobber not yet recovered replaced. */
  pinned: boolean;
}

export interface PolicyVerdict {
  expire: VersionKey[];
  /** Saved bytes after the expiry (a blob shared by versions counts once). */
  repositoryBytes: number;
  /** Sessions still over `sessionBytes` after it, with their bytes: only kept versions are left. */
  over: { owner: string; bytes: number }[];
}

const fileOf = (v: SavedVersion) => `${v.key[0]}\0${v.key[1]}\0${v.key[2]}`;

/** Per file: the first and latest always, the latest `versionsPerFile`, large ones by the latest N. */
function perFile(versions: readonly SavedVersion[], p: RetentionPolicy): Set<SavedVersion> {
  const files = new Map<string, SavedVersion[]>();
  for (const v of versions) {
    const list = files.get(fileOf(v));
    if (list) list.push(v);
    else files.set(fileOf(v), [v]);
  }
  const doomed = new Set<SavedVersion>();
  for (const list of files.values()) {
    const sorted = [...list].sort((a, b) => a.key[3] - b.key[3]);
    const latest = sorted[sorted.length - 1]!;
    const large = sorted.filter((v) => v.bytes >= p.largeFileBytes);
    const keptLarge = new Set(large.slice(-p.largeFileVersions));
    const keptRecent = new Set(sorted.slice(-p.versionsPerFile));
    for (const [i, v] of sorted.entries()) {
      if (v === latest || v.pinned) continue;
      if (v.bytes >= p.largeFileBytes) {
        if (!keptLarge.has(v)) doomed.add(v);
      } else if (i > 0 && !keptRecent.has(v)) doomed.add(v);
    }
  }
  return doomed;
}

/** Bytes per distinct blob, over versions still kept, counted per group. */
class Budget {
  private readonly refs = new Map<string, number>();
  bytes = 0;
  add(v: SavedVersion): void {
    const n = this.refs.get(v.blob) ?? 0;
    if (n === 0) this.bytes += v.bytes;
    this.refs.set(v.blob, n + 1);
  }
  remove(v: SavedVersion): void {
    const n = this.refs.get(v.blob) ?? 0;
    if (n === 1) this.bytes -= v.bytes;
    this.refs.set(v.blob, Math.max(0, n - 1));
  }
}

/**
 * Applies the per-file rules, then the byte bounds: a session over `sessionBytes`, then the
 * repository over `repositoryBytes`, lets its oldest versions go (by time, then version) until
 * it is under, never a file's latest or a pinned one.
 */
export function versionsToExpire(versions: readonly SavedVersion[], p: RetentionPolicy): PolicyVerdict {
  const doomed = perFile(versions, p);
  const kept = versions.filter((v) => !doomed.has(v));
  const latest = new Map<string, SavedVersion>();
  for (const v of kept) {
    const was = latest.get(fileOf(v));
    if (!was || v.key[3] > was.key[3]) latest.set(fileOf(v), v);
  }
  const spare = (v: SavedVersion) => !v.pinned && latest.get(fileOf(v)) !== v;
  const oldestFirst = kept.filter(spare).sort((a, b) => a.ts - b.ts || a.key[3] - b.key[3]);
  const repo = new Budget();
  const owners = new Map<string, Budget>();
  const ownerOf = (v: SavedVersion) => {
    const b = owners.get(v.key[2]) ?? new Budget();
    owners.set(v.key[2], b);
    return b;
  };
  for (const v of kept) {
    repo.add(v);
    ownerOf(v).add(v);
  }
  const drop = (v: SavedVersion) => {
    doomed.add(v);
    repo.remove(v);
    ownerOf(v).remove(v);
  };
  for (const v of oldestFirst) if (ownerOf(v).bytes > p.sessionBytes) drop(v);
  for (const v of oldestFirst) if (!doomed.has(v) && repo.bytes > p.repositoryBytes) drop(v);
  return {
    expire: versions.filter((v) => doomed.has(v)).map((v) => v.key),
    repositoryBytes: repo.bytes,
    over: [...owners.entries()]
      .filter(([, b]) => b.bytes > p.sessionBytes)
      .map(([owner, b]) => ({ owner, bytes: b.bytes })),
  };
}

/** What saved versions hold now, against the bounds: for `doctor`, before any gc. */
export function overBounds(
  versions: readonly SavedVersion[],
  p: RetentionPolicy,
): { repositoryBytes: number; repositoryOver: boolean; sessionsOver: { owner: string; bytes: number }[] } {
  const repo = new Budget();
  const owners = new Map<string, Budget>();
  for (const v of versions) {
    repo.add(v);
    const b = owners.get(v.key[2]) ?? new Budget();
    b.add(v);
    owners.set(v.key[2], b);
  }
  return {
    repositoryBytes: repo.bytes,
    repositoryOver: repo.bytes > p.repositoryBytes,
    sessionsOver: [...owners.entries()]
      .filter(([, b]) => b.bytes > p.sessionBytes)
      .map(([owner, b]) => ({ owner, bytes: b.bytes })),
  };
}
