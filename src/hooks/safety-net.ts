/**
 * The safety net around shell commands (docs/safety-net.md): before a command,
 * live peers' uncommitted files are copied into the blob store; after it, any it
 * changed or removed is recorded as `work.clobbered`, the actor is warned and the
 * owner is told on its next prompt or tool call.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { groupOf } from "../claims/holders.js";
import { type PeerOwners, type PeerQuery, peerOwned } from "../claims/peer-owned.js";
import { relativeKey } from "../core/paths/lexical.js";
import {
  type Clobber,
  findClobbers,
  type NamedClobber,
  ownerNotice,
  type PeerFile,
} from "../core/safety/clobber.js";
import { blobsDirOf, preserveFiles } from "../safety/preserve.js";
import type { WriteTx } from "../store/db.js";
import { append } from "../store/ledger/append.js";
import { untoldClobbers, versionWithStamp } from "../store/safety/preserved.js";
import { type SessionRow, sessionById } from "../store/sessions/rows.js";
import { agentPrinter, type HookCtx } from "./context.js";

/** Whose live peers' claimed or touched paths of the root to ask about: all, or only `paths`. */
export function peerQuery(ctx: HookCtx, session: SessionRow, paths?: readonly string[]): PeerQuery {
  return {
    worktree: ctx.root.root,
    self: session.id,
    group: groupOf(ctx.db, session),
    now: ctx.now,
    freshnessSeconds: ctx.config.freshnessSeconds,
    ...(paths ? { paths } : {}),
  };
}

export function ownersFor(ctx: HookCtx, session: SessionRow): PeerOwners {
  return peerOwned(ctx.db, peerQuery(ctx, session));
}

/** Dirty-snapshot keys (relative to the repository top) as root keys. */
export function rootKeyed(ctx: HookCtx, top: string, snap: Record<string, string>): Record<string, string> {
  if (top === ctx.root.root) return snap;
  const out: Record<string, string> = {};
  for (const [p, stamp] of Object.entries(snap)) out[relativeKey(ctx.root.root, join(top, p))] = stamp;
  return out;
}

/** Before a shell command: copy every live peer's dirty file whose bytes are not yet preserved. */
export function preservePeerWork(ctx: HookCtx, session: SessionRow, dirty: Record<string, string>): number {
  const owners = ownersFor(ctx, session);
  if (owners.size === 0) return 0;
  const files: PeerFile[] = [];
  for (const [key, stamp] of Object.entries(dirty)) {
    const owner = owners.get(key);
    if (owner) files.push({ key, stamp, owner: owner.id });
  }
  if (files.length === 0) return 0;
  return preserveFiles({
    db: ctx.db,
    blobsDir: blobsDirOf(ctx.stateDir),
    worktree: ctx.root.root,
    files,
    actor: session.id,
    reason: "peer-command",
    now: ctx.now,
  });
}

function versionAt(ctx: HookCtx, key: string, owner: string, stamp: string): number | null {
  return versionWithStamp(ctx.db, ctx.root.root, key, owner, stamp);
}

/** After a command, inside its write transaction: record what it did to peers' uncommitted files. */
export function recordClobbers(
  ctx: HookCtx,
  tx: WriteTx,
  actor: SessionRow,
  owners: PeerOwners,
  changed: readonly string[],
  before: Record<string, string>,
  via: string,
): NamedClobber[] {
  const found: Clobber[] = findClobbers({
    changed,
    before,
    ownerOf: (key) => owners.get(key)?.id,
    existsNow: (key) => existsSync(join(ctx.root.root, key)),
    versionAt: (key, owner, stamp) => versionAt(ctx, key, owner, stamp),
  });
  for (const c of found) {
    append(tx, {
      kind: "work.clobbered",
      session: actor.id,
      ts: ctx.now,
      data: {
        worktree: ctx.root.root,
        path: c.key,
        owner: c.owner,
        actor: actor.id,
        version: c.version,
        change: c.change,
        via,
      },
    });
  }
  return found.map((c) => ({ ...c, ownerName: owners.get(c.key)?.name ?? c.owner }));
}

/**
 * Inside a write transaction: the owner's not yet told clobbers, as a message,
 * marked as told. Null when there are none (one indexed lookup).
 */
export function takeOwnerNotice(ctx: HookCtx, tx: WriteTx, owner: SessionRow): string | null {
  const rows = untoldClobbers(ctx.db, owner.id);
  if (rows.length === 0) return null;
  append(tx, {
    kind: "work.noticed",
    session: owner.id,
    ts: ctx.now,
    data: { upToSeq: rows[rows.length - 1]!.seq },
  });
  return ownerNotice(
    rows.map((r) => ({
      key: r.path,
      change: r.change,
      actorName: r.actor ? (sessionById(ctx.db, r.actor)?.name ?? r.actor) : null,
      version: r.version,
      via: r.via,
    })),
    agentPrinter(ctx),
  );
}
