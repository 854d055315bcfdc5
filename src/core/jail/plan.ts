/**
 * What a jail makes read-only (docs/decisions/0054): from plain facts about the repository, its
 * live peers and the installation, the paths the kernel must refuse to write, each with why. Pure.
 */
import { isInside } from "../paths/lexical.js";

/** One live session outside the caller's group, as the jail sees it. */
export interface JailPeer {
  name: string;
  /** Its owned uncommitted files (owned dirty and owned untracked), absolute, in any worktree. */
  owned: readonly string[];
  /** Linked worktrees it works in (not the caller's own, not the main one), absolute. */
  worktrees: readonly string[];
}

export interface JailFacts {
  /** The caller's coordination root: never made read-only as a whole, whatever holds it. */
  root: string;
  peers: readonly JailPeer[];
  /** `<git common dir>/tandem`. */
  stateDir: string;
  /** `<git common dir>`, for `config` and `hooks/`; null outside a repository. */
  commonDir: string | null;
  /** The installed Tandem the launcher and hooks execute (its dist directory, the launcher) and Node's binary. */
  install: readonly string[];
  /** Every wiring file a client reads for Tandem's hooks, `.tandem/config.jsonc` among them, absolute. */
  wiring: readonly { file: string; what: string }[];
}

export interface Candidate {
  path: string;
  reason: string;
}

/** Every path the jail should make read-only, before the disk is asked what stands there. */
export function jailCandidates(f: JailFacts): Candidate[] {
  const out: Candidate[] = [];
  for (const p of f.peers) {
    for (const w of p.worktrees) out.push({ path: w, reason: `${p.name}'s worktree` });
    for (const file of p.owned) out.push({ path: file, reason: `${p.name}'s uncommitted file` });
  }
  out.push({ path: f.stateDir, reason: "Tandem's state (store, saved versions, server address)" });
  if (f.commonDir !== null) {
    out.push({ path: `${f.commonDir}/config`, reason: "git's config (core.hooksPath)" });
    out.push({ path: `${f.commonDir}/hooks`, reason: "git's hooks" });
  }
  for (const p of f.install) out.push({ path: p, reason: "the installed Tandem or Node" });
  for (const w of f.wiring) out.push({ path: w.file, reason: w.what });
  return out;
}

export interface Bind {
  /** The physical path mounted read-only over itself. */
  path: string;
  reasons: string[];
}

export interface Skip {
  path: string;
  reason: string;
  why: string;
}

export interface MountPlan {
  binds: Bind[];
  skipped: Skip[];
}

/**
 * The mounts, given what stands at each candidate: `real` maps a candidate to its physical path
 * (symlinks resolved; the bytes are what is protected) or null when nothing is there yet (a
 * mount needs something to stand on). A path inside another bind is covered by it; a directory
 * holding the caller's own root is never bound whole (the agent's own work must stay writable).
 */
export function mountPlan(
  candidates: readonly Candidate[],
  real: ReadonlyMap<string, string | null>,
  root: string,
): MountPlan {
  const skipped: Skip[] = [];
  const byPath = new Map<string, Bind>();
  for (const c of candidates) {
    const at = real.get(c.path) ?? null;
    if (at === null) {
      skipped.push({ ...c, why: "nothing there yet, so nothing to mount on; creating it stays possible" });
      continue;
    }
    if (isInside(at, root)) {
      skipped.push({ ...c, why: "it holds your own worktree, which must stay writable" });
      continue;
    }
    const reason = at === c.path ? c.reason : `${c.reason}, through the symlink ${c.path}`;
    const bind = byPath.get(at);
    if (bind) {
      if (!bind.reasons.includes(reason)) bind.reasons.push(reason);
    } else byPath.set(at, { path: at, reasons: [reason] });
  }
  const all = [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const binds: Bind[] = [];
  for (const b of all) {
    const cover = binds.find((o) => o.path !== b.path && isInside(o.path, b.path));
    if (cover) cover.reasons.push(...b.reasons.map((r) => `${r} (${b.path})`));
    else binds.push(b);
  }
  const seen = new Set<string>();
  const open = skipped.filter((k) => {
    if (seen.has(k.path) || binds.some((b) => isInside(b.path, k.path))) return false;
    seen.add(k.path);
    return true;
  });
  return { binds, skipped: open };
}
