/**
 * Before a shell command runs (after its claims were granted): what to measure it against, and the
 * safety net's copies of live peers' uncommitted files (docs/safety-net.md, decision 0019).
 */
import { existsSync, lstatSync, statSync } from "node:fs";
import { join } from "node:path";
import { peerOwned } from "../claims/peer-owned.js";
import type { ToolCall } from "../clients/types.js";
import type { ClaimTarget } from "../core/claims/decide.js";
import { type SnapshotScope, snapshotScope } from "../core/safety/snapshot-scope.js";
import type { SessionRow } from "../store/sessions/rows.js";
import type { ToolTargets } from "../targets/tool-targets.js";
import type { HookCtx } from "./context.js";
import { selfSession } from "./context.js";
import { peerQuery, preservePeerWork } from "./safety-net.js";
import { saveNamedSnapshot, saveShellSnapshot } from "./shell-delta.js";

/**
 * Before a shell command: what to measure it against — the stamps of the files it names when the
 * reader saw all it can change (core/safety/snapshot-scope.ts), else the dirty set, and copies of live
 * peers' uncommitted files.
 */
export async function protectShell(
  ctx: HookCtx,
  tool: ToolCall,
  found: ToolTargets,
  claim: ClaimTarget[],
): Promise<void> {
  // Recorded by the claim transaction just before; looked up once for both uses.
  const session = selfSession(ctx) ?? undefined;
  const scope = shellScope(ctx, found, claim, session);
  if (scope.scope === "named") {
    ctx.dropDirtyAhead();
    saveNamedSnapshot(ctx, tool, scope.paths);
    return;
  }
  const dirty = await saveShellSnapshot(ctx, tool, found.gitCalls);
  if (!dirty || Object.keys(dirty).length === 0) return;
  if (session) preservePeerWork(ctx, session, dirty);
}

function shellScope(
  ctx: HookCtx,
  found: ToolTargets,
  claim: ClaimTarget[],
  session: SessionRow | undefined,
): SnapshotScope {
  const top = ctx.root.repo?.top ?? null;
  const shape = {
    opaque: found.opaque,
    error: found.error !== null,
    gitCalls: found.gitCalls.length,
    wiringCommands: found.wiringCommands.length,
  };
  return snapshotScope(shape, claim, top === ctx.root.root ? top : null, {
    peerOwned: (paths) => !session || peerOwned(ctx.db, peerQuery(ctx, session, paths)).size > 0,
    isDirectory: (path) => isDirectory(join(ctx.root.root, path)),
    elsewhere: (path) => elsewhere(ctx.root.root, path),
    linked: (path) => linked(join(ctx.root.root, path)),
  });
}

/** A `.git` in the path, or beside any directory between the file and the top: another repository's file. */
function elsewhere(top: string, path: string): boolean {
  const parts = path.split("/");
  if (parts.includes(".git")) return true;
  for (let i = parts.length - 1; i > 0; i--) {
    if (existsSync(join(top, ...parts.slice(0, i), ".git"))) return true;
  }
  return false;
}

/**
 * A symlink, or a file that other names share (made by `ln` in an earlier call, or by anyone).
 * Other names a live peer holds were judged with the claims already (claims/hard-links.ts); the
 * rest cannot be found cheaply, so the command is measured on the whole tree.
 */
function linked(abs: string): boolean {
  const stat = lstatSync(abs, { throwIfNoEntry: false });
  return stat !== undefined && (stat.isSymbolicLink() || (stat.isFile() && stat.nlink > 1));
}

function isDirectory(abs: string): boolean {
  return statSync(abs, { throwIfNoEntry: false })?.isDirectory() ?? false;
}
