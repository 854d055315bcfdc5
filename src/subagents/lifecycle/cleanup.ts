import { existsSync, mkdirSync, realpathSync, rmdirSync, rmSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { spanned } from "../../core/printed.js";
import { gitStatus } from "../../git/run.js";
import { verifyBlob } from "../../store/blobs/files.js";
import { append, write } from "../../store/ledger/append.js";
import { subRunning } from "../apply/apply.js";
import { captureWorktree } from "../capture/capture.js";
import type { SubCtx } from "../shared/ctx.js";
import { resolveCommit, worktreeTop } from "../shared/git.js";
import { appliesOf, type CaptureRecord, latestCapture, type SubRecord } from "../shared/records.js";
import { stateHome } from "./create.js";

export interface CleanupResult {
  ok: boolean;
  message: string;
}

const refuse = (message: string): CleanupResult => ({ ok: false, message });

/** Blobs present and hashes verified for everything the capture names (docs/product.md §7.4). */
function durable(ctx: SubCtx, c: CaptureRecord): boolean {
  const blobs = [c.mboxBlob, c.patchBlob, ...c.series.map((s) => s.mboxBlob)].filter(
    (b): b is string => b !== null,
  );
  return blobs.every((b) => verifyBlob(ctx.blobsDir, b));
}

/**
 * Whether the worktree still holds exactly what the capture recorded: a fresh
 * capture into scratch space must give the same head and the same bytes.
 * Work done after the last capture would otherwise go with the worktree.
 */
async function unchangedSince(ctx: SubCtx, sub: SubRecord, c: CaptureRecord): Promise<boolean> {
  if (!existsSync(sub.worktree)) {
    return resolveCommit(ctx.root, `refs/heads/${sub.branch}`) === c.head || c.head === null;
  }
  mkdirSync(ctx.scratchDir, { recursive: true });
  const scratch = join(
    ctx.scratchDir,
    `verify-${process.getBuiltinModule("node:crypto").randomBytes(6).toString("hex")}`,
  );
  try {
    const again = await captureWorktree({
      worktree: sub.worktree,
      base: sub.base,
      blobsDir: join(scratch, "blobs"),
      maxDirtyBytes: ctx.config.maxDirtyBytes,
      maxPatchBytes: ctx.config.maxPatchBytes,
      tmpDir: scratch,
    });
    const reasons = (x: { reason: string }[]) => x.map((u) => u.reason).join("\n");
    return (
      again.head === c.head &&
      again.mboxBlob === c.mboxBlob &&
      again.patchBlob === c.patchBlob &&
      reasons(again.uncaptured) === reasons(c.uncaptured)
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Deletes the worktree (by git, else by hand plus prune) and the branch. */
function deleteWorktree(ctx: SubCtx, sub: SubRecord): void {
  const repo = worktreeTop(ctx.root) ?? sub.origin;
  const removed = gitStatus(repo, ["worktree", "remove", "--force", "--force", sub.worktree]);
  if (removed.status !== 0) {
    // Submodules make `worktree remove` refuse even when forced.
    rmSync(sub.worktree, { recursive: true, force: true });
    gitStatus(repo, ["worktree", "prune"]);
  }
  if (resolveCommit(repo, `refs/heads/${sub.branch}`)) {
    const del = gitStatus(repo, ["branch", "-D", "--", sub.branch]);
    if (del.status !== 0) throw new Error(`git branch -D ${sub.branch} failed: ${del.stderr.trim()}`);
  }
  pruneEmptyParents(sub.worktree);
}

/** Worktree paths are recorded resolved; compare like with like. */
function realOrSelf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

/**
 * Removes the folders `sub run` made to hold the worktree once they are empty:
 * up to the state home for the default root, else just the worktree's parent.
 */
function pruneEmptyParents(worktree: string): void {
  const home = realOrSelf(stateHome(process.env));
  const stop = worktree.startsWith(home + sep) ? home : dirname(dirname(worktree));
  for (let dir = dirname(worktree); dir !== stop && dir.startsWith(stop + sep); dir = dirname(dir)) {
    try {
      rmdirSync(dir);
    } catch {
      return; // not empty (another sub-agent's worktree) or already gone
    }
  }
}

/** Why the latest capture does not yet make the worktree disposable, or null. */
async function removalBlocker(ctx: SubCtx, sub: SubRecord): Promise<string | null> {
  if (subRunning(sub)) return "the child is still running; wait for it to end first";
  const c = latestCapture(ctx.db, sub);
  const capture = spanned(ctx.printer, "sub", "capture", sub.id);
  if (!c) return `${sub.id} has no capture; run ${capture} first (or \`sub discard\` to drop its work)`;
  if (!durable(ctx, c)) {
    return `the blobs of capture ${c.number} are missing or corrupt; run ${capture} again`;
  }
  if (c.uncaptured.length > 0) {
    const acked = appliesOf(ctx.db, sub.id).some(
      (a) => a.captureId === c.id && a.stage === "completed" && a.ackUncaptured,
    );
    if (!acked) {
      return `capture ${c.number} did not hold all of the child's work (${c.uncaptured.map((u) => u.reason).join(", ")}), and the worktree is its only copy; apply it with --acknowledge-uncaptured, or \`sub discard\` it`;
    }
  }
  if (!(await unchangedSince(ctx, sub, c))) {
    return `the worktree changed since capture ${c.number}; run ${capture} first`;
  }
  return null;
}

/** `sub remove`: only when the latest capture holds everything (docs/product.md §7.4). */
export async function removeSub(ctx: SubCtx, sub: SubRecord): Promise<CleanupResult> {
  if (sub.removal) return { ok: true, message: `${sub.id} was already ${sub.removal}; nothing to do.` };
  const blocker = await removalBlocker(ctx, sub);
  if (blocker) return refuse(`not removing ${sub.id}: ${blocker}.`);
  deleteWorktree(ctx, sub);
  write(ctx.db, (tx) =>
    append(tx, {
      kind: "subagent.removed",
      session: ctx.session,
      data: { id: sub.id, worktree: sub.worktree, branch: sub.branch },
    }),
  );
  return {
    ok: true,
    message: `removed ${sub.id}: worktree ${sub.worktree} and branch ${sub.branch}; its captures stay in the store.`,
  };
}

/** `sub discard`: removes regardless (the caller has confirmed) and records what was lost. */
export function discardSub(ctx: SubCtx, sub: SubRecord): CleanupResult {
  if (sub.removal) return { ok: true, message: `${sub.id} was already ${sub.removal}; nothing to do.` };
  if (subRunning(sub)) return refuse(`not discarding ${sub.id}: the child is still running; stop it first.`);
  const c = latestCapture(ctx.db, sub);
  const lost = c ? c.uncaptured : [{ reason: "never captured", paths: [] }];
  deleteWorktree(ctx, sub);
  write(ctx.db, (tx) =>
    append(tx, {
      kind: "subagent.discarded",
      session: ctx.session,
      data: { id: sub.id, worktree: sub.worktree, branch: sub.branch, lost },
    }),
  );
  return {
    ok: true,
    message: `discarded ${sub.id}: worktree ${sub.worktree} and branch ${sub.branch} are gone.`,
  };
}
