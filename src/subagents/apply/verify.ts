import { headOf, isAncestor, worktreeBlobs } from "../shared/git.js";
import { short } from "../shared/ids.js";
import type { ApplyRecord } from "../shared/records.js";

export type AppliedCheck = { ok: true } | { ok: false; reason: string; paths: string[] };

/**
 * Whether a completed apply is still in the target (docs/product.md §7.3): the
 * post-apply HEAD must be in HEAD's history, and the uncommitted changes must
 * not have been discarded. Later edits or commits of them still count; every
 * patch path back at its pre-apply content does not. A completion the user
 * acknowledged as resolved by hand keeps the ancestry check only.
 */
export function verifyApplied(top: string, row: ApplyRecord): AppliedCheck {
  const head = headOf(top);
  if (head === null || row.postHead === null || !isAncestor(top, row.postHead, head)) {
    return {
      ok: false,
      reason: `HEAD ${short(head)} no longer contains the post-apply HEAD ${short(row.postHead)}: the target was reset or rebased and the applied commits are not in it`,
      paths: [],
    };
  }
  if (row.ackPartial || !row.patchApplied || row.preApply.length === 0) return { ok: true };
  const now = worktreeBlobs(
    top,
    row.preApply.map((p) => p.path),
  );
  const back = row.preApply.filter((p) => (now.get(p.path) ?? null) === p.blob);
  if (back.length === row.preApply.length) {
    return {
      ok: false,
      reason: `its uncommitted changes were discarded since (${back.map((p) => p.path).join(", ")} are back at their pre-apply content)`,
      paths: back.map((p) => p.path),
    };
  }
  return { ok: true };
}
