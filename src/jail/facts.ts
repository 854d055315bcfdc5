/**
 * The facts a jail is planned from (src/core/jail/plan.ts): the live peers' owned uncommitted
 * files in every worktree, their linked worktrees, Tandem's state, the installation and the wiring.
 */
import { realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { groupOf } from "../claims/holders.js";
import { dirtyAmong } from "../claims/owned-dirty.js";
import { peerOwned } from "../claims/peer-owned.js";
import { PROJECT_WIRING } from "../config/project-wiring.js";
import type { ResolvedRoot } from "../config/root.js";
import { wiringFiles } from "../core/guards/wiring.js";
import type { JailFacts, JailPeer } from "../core/jail/plan.js";
import { isInside } from "../core/paths/lexical.js";
import { git, splitZ } from "../git/run.js";
import { sessionViews } from "../sessions/view.js";
import { ownedWorktrees } from "../store/claims/rows.js";
import type { Db } from "../store/db.js";
import type { SessionRow } from "../store/sessions/rows.js";
import { allSessions } from "../store/sessions/rows.js";
import { geminiPolicyDir } from "../wiring/gemini-policy.js";
import { runningScript } from "../wiring/hook-command.js";
import { gitHooksDir } from "../wiring/snapshot.js";

type Env = Readonly<Record<string, string | undefined>>;

export interface JailAsk {
  db: Db;
  resolved: ResolvedRoot;
  stateDir: string;
  /** The session the jail is for; null for a person's shell (every live session is a peer). */
  self: SessionRow | null;
  freshnessSeconds: number;
  now: number;
  env: Env;
}

export function physical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The top of `worktree`'s working tree, or null when git cannot say. */
function topOf(worktree: string): string | null {
  try {
    return physical(git(worktree, ["rev-parse", "--show-toplevel"]).trim());
  } catch {
    return null;
  }
}

/** Of `paths` (relative to `worktree`), those with uncommitted changes; all of them when git cannot say. */
function dirtyOf(worktree: string, paths: readonly string[]): string[] {
  const top = topOf(worktree);
  return top === null ? [...paths] : dirtyAmong(top, worktree, paths);
}

/** Linked worktrees of the repository (the main one excluded), physical. */
function linkedWorktrees(top: string): string[] {
  try {
    const records = splitZ(git(top, ["worktree", "list", "--porcelain", "-z"]));
    const trees = records.filter((r) => r.startsWith("worktree ")).map((r) => physical(r.slice(9)));
    return trees.slice(1);
  } catch {
    return [];
  }
}

function peersOf(ask: JailAsk): JailPeer[] {
  const { db, self } = ask;
  const group = self ? groupOf(db, self) : "";
  const peers = new Map<string, { name: string; owned: string[]; worktrees: string[] }>();
  const peer = (id: string, name: string) => {
    if (!peers.has(id)) peers.set(id, { name, owned: [], worktrees: [] });
    return peers.get(id)!;
  };
  const root = ask.resolved.root;
  for (const worktree of new Set([root, ...ownedWorktrees(db)])) {
    const owners = peerOwned(db, {
      worktree,
      self: self?.id ?? "",
      group,
      now: ask.now,
      freshnessSeconds: ask.freshnessSeconds,
    });
    if (owners.size === 0) continue;
    const dirty = new Set(dirtyOf(worktree, [...owners.keys()]));
    for (const [path, holder] of owners)
      if (dirty.has(path)) peer(holder.id, holder.name).owned.push(join(worktree, path));
  }
  const top = ask.resolved.repo?.top;
  const linked = top ? linkedWorktrees(top).filter((w) => !isInside(w, root) && !isInside(root, w)) : [];
  const live = new Set(
    sessionViews(db, ask.freshnessSeconds, ask.now)
      .filter((s) => s.live)
      .map((s) => s.id),
  );
  for (const s of allSessions(db)) {
    if (!live.has(s.id) || s.id === self?.id || !s.cwd || (self && groupOf(db, s) === group)) continue;
    const cwd = physical(s.cwd);
    for (const w of linked) if (isInside(w, cwd)) peer(s.id, s.name).worktrees.push(w);
  }
  return [...peers.values()];
}

/** The installed Tandem (the directory of the running bundle, the launcher on PATH) and Node. */
function installPaths(env: Env): string[] {
  const out = [physical(process.execPath)];
  const script = runningScript();
  if (script) out.push(dirname(physical(script)));
  for (const dir of (env.PATH ?? "").split(":")) {
    if (!dir) continue;
    const launcher = join(dir, "tandem");
    const real = physical(launcher);
    if (real !== launcher || isExisting(launcher)) {
      out.push(launcher, real);
      break;
    }
  }
  return out;
}

function isExisting(path: string): boolean {
  try {
    realpathSync(path);
    return true;
  } catch {
    return false;
  }
}

export function jailFacts(ask: JailAsk): JailFacts {
  const repo = ask.resolved.repo;
  const root = ask.resolved.root;
  const commonDir = repo ? physical(repo.commonDir) : null;
  const tops = repo && repo.top !== root ? [root, repo.top] : [root];
  let hooksDir: string | null = null;
  try {
    hooksDir = repo ? physical(gitHooksDir(root)) : null;
  } catch {
    hooksDir = null;
  }
  const wiring = [
    ...wiringFiles({ projectFiles: PROJECT_WIRING, tops, commonDir, hooksDir }),
    // The whole directory: a new file there could allow any command as surely as ours does.
    { file: geminiPolicyDir(ask.env), what: "Gemini CLI's user policies" },
  ];
  return {
    root,
    peers: peersOf(ask),
    stateDir: physical(ask.stateDir),
    commonDir,
    install: installPaths(ask.env),
    wiring: wiring.map((w) => ({ file: w.file, what: w.what })),
  };
}
