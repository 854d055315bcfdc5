/**
 * At every hook of any session: keep the versions the caller's tool call left in its own files,
 * and check every live session's kept files against their stamps (docs/safety-net.md, "every
 * owner version kept" and "watched afterwards"; decision 0020). Observational: a failure is
 * recorded and the hook goes on.
 */
import { join } from "node:path";
import { isInside, relativeKey } from "../core/paths/lexical.js";
import { resolveTarget } from "../core/paths/target.js";
import { intendedText, readsPrevious } from "../core/safety/intended.js";
import { covers, type InFlight, inFlight, type OwnedFile, openCalls } from "../core/safety/owner-versions.js";
import { isLive } from "../core/sessions/liveness.js";
import { physicalPath } from "../facts/physical.js";
import { fileStamp } from "../git/status.js";
import { keepAndWatch } from "../safety/keep.js";
import { blobsDirOf } from "../safety/preserve.js";
import { livenessFacts } from "../sessions/liveness.js";
import { readBlob } from "../store/blobs/files.js";
import {
  type KeptRow,
  newestKept,
  openShellCommands,
  owns,
  recentCalls,
  watchedFiles,
} from "../store/safety/kept.js";
import { type SessionRow, sessionById } from "../store/sessions/rows.js";
import { toolTargets } from "../targets/tool-targets.js";
import type { HookCtx } from "./context.js";
import { selfSession } from "./context.js";
import { recordOpenFailure } from "./open-failure.js";

/** A call asked for longer ago than this without its post-tool-use no longer shields its session's files. */
const OPEN_WINDOW_MS = 10 * 60_000;

/** Which of the caller's files its tool call left: named keys, or all of them when unknown. */
export type OwnKeys = ReadonlySet<string> | "all";

/**
 * Keeps and checks; returns true when it recorded a change to the caller's own work, which the
 * caller is then told of in this hook's answer.
 */
export function watchOwnedWork(ctx: HookCtx, own: OwnKeys = new Set(), meant = false): boolean {
  try {
    const self = selfSession(ctx);
    const files = ownedFiles(ctx, self, own);
    if (files.length === 0) return false;
    const done = keepAndWatch({
      db: ctx.db,
      blobsDir: blobsDirOf(ctx.stateDir),
      worktree: ctx.root.root,
      files,
      actor: self?.id ?? null,
      now: ctx.now,
      ...(meant && self && own !== "all" ? { intended: intendedOf(ctx, self.id, own) } : {}),
    });
    return self !== null && done.clobbers.some((c) => c.owner === self.id);
  } catch (err) {
    recordOpenFailure(ctx, "keeping owner versions", err);
    return false;
  }
}

/**
 * Every live session's kept files, stamped now, and the caller's own new keys. A file one of its
 * owner's calls still open may be changing is the owner's: kept as its version at the owner's
 * hook, left alone at a peer's (that call's post-tool-use keeps it).
 */
function ownedFiles(ctx: HookCtx, self: SessionRow | null, own: OwnKeys): OwnedFile[] {
  const root = ctx.root.root;
  const rows: KeptRow[] = watchedFiles(ctx.db, root);
  if (self && own !== "all") {
    const seen = new Set(rows.filter((r) => r.owner === self.id).map((r) => r.path));
    for (const key of own) {
      if (seen.has(key) || !owns(ctx.db, root, key, self.id)) continue;
      const kept = newestKept(ctx.db, root, key, self.id);
      rows.push({ path: key, owner: self.id, ...(kept ?? { version: 0, stamp: "", blob: "", seq: -1 }) });
    }
  }
  const flights = new Map<string, InFlight | null>();
  const flightOf = (owner: string): InFlight | null => {
    if (!flights.has(owner)) flights.set(owner, ownerFlight(ctx, owner, self?.id ?? null));
    return flights.get(owner)!;
  };
  const out: OwnedFile[] = [];
  for (const r of rows) {
    const flight = flightOf(r.owner);
    if (flight === null) continue;
    const mine = r.owner === self?.id;
    const moving = covers(flight, r.path);
    if (!mine && moving) continue;
    out.push({
      key: r.path,
      owner: r.owner,
      stamp: fileStamp(join(root, r.path)),
      kept: r.seq < 0 ? null : { version: r.version, stamp: r.stamp, blob: r.blob, seq: r.seq },
      own: mine && (moving || own === "all" || own.has(r.path)),
    });
  }
  return out;
}

/** null: not live, not checked; else the files its open calls may be changing. */
function ownerFlight(ctx: HookCtx, owner: string, self: string | null): InFlight | null {
  if (owner !== self) {
    const row = sessionById(ctx.db, owner);
    if (!row || !isLive(livenessFacts(row), ctx.now, ctx.config.freshnessSeconds)) return null;
  }
  const root = ctx.root.root;
  const shell = openShellCommands(ctx.db, owner, ctx.now - OPEN_WINDOW_MS);
  const raws = openCalls(recentCalls(ctx.db, owner), ctx.now, OPEN_WINDOW_MS).flatMap((c) => c.targets);
  const top = ctx.root.repo?.top ?? root;
  const keys = [
    ...raws.flatMap((raw) => keyOf(root, root, raw)),
    ...shell.named.map((p) => relativeKey(root, join(top, p))),
  ];
  return inFlight(keys, shell.tree);
}

/** A target as a root key, resolved as the tool named it (relative ones from `cwd`); none outside. */
function keyOf(root: string, cwd: string, raw: string): string[] {
  const r = resolveTarget(raw, cwd, [root], {}, physicalPath);
  return r.ok && isInside(root, r.target.physical) ? [relativeKey(root, r.target.physical)] : [];
}

/** The root keys a file tool call (Write, Edit, a patch) names: what it left in the caller's files. */
export async function toolKeys(ctx: HookCtx): Promise<Set<string>> {
  const tool = ctx.input.tool;
  const keys = new Set<string>();
  if (!tool) return keys;
  const root = ctx.root.root;
  const cwd = tool.cwd ?? ctx.input.cwd ?? root;
  const found = await toolTargets(tool, { cwd });
  for (const raw of found.raws) for (const key of keyOf(root, cwd, raw)) keys.add(key);
  return keys;
}

/**
 * What the caller's file tool call meant its one file to hold (issue 37.1): the payload, or the
 * edit applied to the caller's newest kept version of it. Empty when that cannot be told.
 */
function intendedOf(ctx: HookCtx, self: string, keys: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string>();
  const tool = ctx.input.tool;
  if (!tool || keys.size !== 1) return out;
  const key = [...keys][0]!;
  // A Write's meaning is its payload: reading back a big previous version would only cost time.
  const kept = readsPrevious(tool) ? newestKept(ctx.db, ctx.root.root, key, self) : null;
  let previous: string | null = null;
  try {
    previous = kept ? readBlob(blobsDirOf(ctx.stateDir), kept.blob).toString("utf8") : null;
  } catch {
    return out; // the kept copy is gone (doctor says so): nothing to apply the edit to
  }
  const text = intendedText(tool, previous);
  if (text !== null) out.set(key, text);
  return out;
}
