import { lstatSync } from "node:fs";
import { join } from "node:path";
import type { PeerOwners } from "../claims/peer-owned.js";
import type { ToolCall } from "../clients/types.js";
import type { GitCall } from "../core/git/call.js";
import type { NamedClobber } from "../core/safety/clobber.js";
import type { SnapshotScope } from "../core/safety/snapshot-scope.js";
import { dirtyPaths, dirtySnapshotAsync, fileStamp, snapshotDelta } from "../git/status.js";
import { claimHistoryPaths } from "../store/claims/reads.js";
import {
  endSnapshot,
  forgetSnapshots,
  openSnapshot,
  peerTreeCommandDuring,
  putShellSnapshot,
  snapshotState,
} from "../store/claims/shell-snapshots.js";
import type { Db } from "../store/db.js";
import { append, write } from "../store/ledger/append.js";
import { type HookCtx, hookSession, selfSession } from "./context.js";
import { ownersFor, recordClobbers, rootKeyed } from "./safety-net.js";
import {
  createdStashes,
  readStashes,
  recordCreatedStashes,
  type StashSnapshot,
  stashRepos,
  stashSnapshot,
} from "./stash-delta.js";

/** Shell calls without an id (Cursor's shell events) share one slot per session. */
function slot(tool: ToolCall): string {
  return tool.useId ?? "-";
}

/** The whole turn is one slot too: it catches writes that fired no post-tool-use hook. */
const TURN_SLOT = "turn:";

/** Stores what a command (or the turn, at `TURN_SLOT`) starts from; no event, so no fsync. */
function storeSnapshot(
  ctx: HookCtx,
  key: string,
  top: string,
  snap: Record<string, string>,
  stashes: StashSnapshot | null,
  scope: SnapshotScope["scope"],
): void {
  write(
    ctx.db,
    (tx) => {
      const session = hookSession(ctx, tx);
      putShellSnapshot(ctx.db, {
        session: session.id,
        key,
        startedAt: ctx.now,
        worktree: top,
        dirty: snap,
        stashes,
        scope,
      });
    },
    "gating",
  );
}

/**
 * Saves the dirty set (keyed relative to the repository top) and, when given, the stash entries
 * of the repositories the command stashes in; returns the dirty set root-keyed.
 */
async function saveSnapshot(
  ctx: HookCtx,
  key: string,
  stashes: StashSnapshot | null,
): Promise<Record<string, string> | null> {
  const top = ctx.root.repo?.top;
  if (!top) return null;
  const dirty = await dirtySet(ctx, top);
  storeSnapshot(ctx, key, top, dirty, stashes, "tree");
  return rootKeyed(ctx, top, dirty);
}

/** The dirty set the context started reading when it opened, or read now. */
function dirtySet(ctx: HookCtx, top: string): Promise<Record<string, string>> {
  return ctx.dirtyAhead ?? dirtySnapshotAsync(top);
}

/** The stamp of each named file, present or not: all a fully read command can change. */
function namedStamps(top: string, paths: readonly string[]): Record<string, string> {
  return Object.fromEntries(paths.map((p) => [p, fileStamp(join(top, p))]));
}

/**
 * The named files after the command. One it made a directory (`mkdir`, `cp -r A NEW`) counts as
 * absent, as git sees a directory, and the files in it that git lists are stamped as well (the
 * directory was not there before: a named snapshot is never taken over an existing one).
 */
function namedStampsAfter(top: string, paths: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const dirs: string[] = [];
  for (const p of paths) {
    if (lstatSync(join(top, p), { throwIfNoEntry: false })?.isDirectory()) {
      dirs.push(p);
      out[p] = "missing";
    } else out[p] = fileStamp(join(top, p));
  }
  if (dirs.length > 0) for (const f of dirtyPaths(top, dirs)) out[f] = fileStamp(join(top, f));
  return out;
}

/**
 * Before a shell command runs: remember the repository's dirty set, to measure
 * what it changed, and the stash list where it runs `git stash`. Returns the dirty set keyed
 * relative to the root.
 */
export function saveShellSnapshot(
  ctx: HookCtx,
  tool: ToolCall,
  gitCalls: readonly GitCall[] = [],
): Promise<Record<string, string> | null> {
  // Only a command line that calls `git stash` pays for reading stash lists.
  const tops = gitCalls.length === 0 ? [] : stashRepos(ctx, gitCalls);
  return saveSnapshot(ctx, slot(tool), tops.length === 0 ? null : stashSnapshot(readStashes(tops)));
}

/**
 * Before a command the shell reader read fully (core/safety/snapshot-scope.ts): the stamps of the files
 * it names, relative to the repository top, instead of the whole tree's dirty set; no git runs.
 */
export function saveNamedSnapshot(ctx: HookCtx, tool: ToolCall, paths: readonly string[]): void {
  const top = ctx.root.repo?.top;
  if (top) storeSnapshot(ctx, slot(tool), top, namedStamps(top, paths), null, "named");
}

/** At a prompt: remember the dirty set, so Stop can record what the whole turn changed. */
export async function saveTurnSnapshot(ctx: HookCtx): Promise<void> {
  await saveSnapshot(ctx, TURN_SLOT, null);
}

export interface Attribution {
  mine: string[];
  unattributed: string[];
  /** Paths a live peer holds: the agent is warned. */
  peerHeld: { path: string; holder: string }[];
  /** Peers' uncommitted files the command changed or removed (the safety net). */
  clobbered: NamedClobber[];
}

/** Commands older than this without a post-tool-use (Codex heredoc patches fire none) are forgotten. */
const OPEN_WINDOW_MS = 10 * 60_000;

/**
 * Whether a peer's shell command that could change unnamed files ran in the same worktree during
 * [start, end]. A command measured by its named files changes only files its session claimed,
 * which attribution already gives to their holder.
 */
function concurrentPeers(db: Db, self: string, worktree: string, start: number, end: number): boolean {
  return peerTreeCommandDuring(db, { self, worktree, start, end, openSince: end - OPEN_WINDOW_MS });
}

function ownHistory(db: Db, session: string, worktree: string): Set<string> {
  return new Set(claimHistoryPaths(db, session, worktree));
}

function attribute(paths: string[], owners: PeerOwners, concurrent: boolean, own: Set<string>): Attribution {
  const a: Attribution = { mine: [], unattributed: [], peerHeld: [], clobbered: [] };
  for (const p of paths) {
    const owner = owners.get(p)?.name;
    if (owner) a.peerHeld.push({ path: p, holder: owner });
    if (owner || (concurrent && !own.has(p))) a.unattributed.push(p);
    else a.mine.push(p);
  }
  return a;
}

/** A saved snapshot not yet measured against, and the state after the command, being read. */
export interface PendingDelta {
  key: string;
  top: string;
  /** The row's `dirty` text as read: the measurement is against exactly this snapshot. */
  text: string;
  before: Record<string, string>;
  scope: SnapshotScope["scope"];
  stashes: StashSnapshot | null;
  after: Promise<Record<string, string>>;
}

/**
 * After a command, first of all: the snapshot its pre-tool-use saved, if any, and the state after
 * it — the named files' stamps, or the whole tree's dirty set, whose git then runs while the hook
 * records the completion. Read outside the write lock.
 */
export function startShellDelta(ctx: HookCtx, tool: ToolCall): PendingDelta | null {
  return startDelta(ctx, slot(tool));
}

function startDelta(ctx: HookCtx, key: string): PendingDelta | null {
  const top = ctx.root.repo?.top;
  const session = selfSession(ctx);
  if (!top || !session) return null;
  const row = openSnapshot(ctx.db, session.id, key);
  if (!row) return null;
  const before = row.dirty;
  const after =
    row.scope === "named"
      ? Promise.resolve().then(() => namedStampsAfter(top, Object.keys(before)))
      : dirtySet(ctx, top);
  // Whoever awaits it gets the error; unawaited, it must not end the process.
  after.catch(() => {});
  return { key, top, text: row.text, before, scope: row.scope, stashes: row.stashes, after };
}

/**
 * After a shell command: record what it changed as touched by this session
 * (docs/product.md §4.5). A path a live peer claimed or touched, or any change made while
 * a peer's command also ran, is recorded as unattributed instead.
 */
export function recordShellDelta(ctx: HookCtx, pending: PendingDelta | null): Promise<Attribution | null> {
  return recordDelta(ctx, pending, `shell:${ctx.input.tool?.name ?? "shell"}`);
}

/** At Stop: what the whole turn changed, including writes no post-tool-use hook reported. */
export function recordTurnDelta(ctx: HookCtx): Promise<Attribution | null> {
  return recordDelta(ctx, startDelta(ctx, TURN_SLOT), "turn");
}

async function recordDelta(
  ctx: HookCtx,
  pending: PendingDelta | null,
  via: string,
): Promise<Attribution | null> {
  if (!pending) return null;
  const { key, top } = pending;
  const after = await pending.after;
  const stashesAfter = pending.stashes ? readStashes(Object.keys(pending.stashes)) : {};
  return write(
    ctx.db,
    (tx) => {
      const session = hookSession(ctx, tx);
      const row = snapshotState(ctx.db, session.id, key);
      // Measured already, or replaced by a later command of the same id since it was read.
      if (!row || row.endedAt !== null || row.text !== pending.text) return null;
      endSnapshot(ctx.db, session.id, key, ctx.now);
      if (pending.stashes) {
        recordCreatedStashes(tx, session.id, ctx.now, createdStashes(pending.stashes, stashesAfter));
      }
      forgetSnapshots(ctx.db, ctx.now - 6 * OPEN_WINDOW_MS);
      const before = rootKeyed(ctx, top, pending.before);
      const keys = snapshotDelta(before, rootKeyed(ctx, top, after));
      if (keys.length === 0) return { mine: [], unattributed: [], peerHeld: [], clobbered: [] };
      const owners = ownersFor(ctx, session);
      const concurrent = concurrentPeers(ctx.db, session.id, top, row.startedAt, ctx.now);
      const a = attribute(keys, owners, concurrent, ownHistory(ctx.db, session.id, ctx.root.root));
      a.clobbered = recordClobbers(ctx, tx, session, owners, keys, before, via);
      append(tx, {
        kind: "files.touched",
        session: session.id,
        ts: ctx.now,
        data: { worktree: ctx.root.root, paths: a.mine, unattributed: a.unattributed, via },
      });
      return a;
    },
    "gating",
  );
}
