import { lstatSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ClaimTarget } from "../core/claims/decide.js";
import { type FileId, type HeldFile, type LinkedTarget, otherNames } from "../core/claims/hard-links.js";
import type { Db } from "../store/db.js";
import { readSnapshot } from "../store/ledger/append.js";
import type { SessionRow } from "../store/sessions/rows.js";
import { groupOf, loadHeld } from "./holders.js";

/** A regular file's identity when it has other names (hard links); null otherwise. */
function linkedFile(abs: string): FileId | null {
  const st = lstatSync(abs, { throwIfNoEntry: false });
  return st?.isFile() && st.nlink > 1 ? { dev: st.dev, ino: st.ino } : null;
}

function fileId(abs: string): FileId | null {
  const st = statSync(abs, { throwIfNoEntry: false });
  return st?.isFile() ? { dev: st.dev, ino: st.ino } : null;
}

/**
 * The other names, among the paths live peers hold, of the targets that are files with hard links
 * (core/claims/hard-links.ts): the claim decision judges them as written too. A target costs one
 * lstat; only when one has other names are the peers' claims read and their files stat'ed.
 */
export function linkedNames(
  db: Db,
  targets: readonly ClaimTarget[],
  self: SessionRow | null,
  now: number,
  freshnessSeconds: number,
): ClaimTarget[] {
  const linked: LinkedTarget[] = [];
  for (const target of targets) {
    const id = linkedFile(join(target.worktree, target.path));
    if (id) linked.push({ target, id });
  }
  if (linked.length === 0) return [];
  const peers = readSnapshot(db, () => {
    const group = self ? groupOf(db, self) : null;
    return loadHeld(db, now, freshnessSeconds).filter(
      (c) => c.holder.live && c.holder.id !== self?.id && c.holder.group !== group,
    );
  });
  const held: HeldFile[] = peers.map((c) => ({
    key: { worktree: c.worktree, path: c.path },
    id: fileId(join(c.worktree, c.path)),
  }));
  return otherNames(linked, held);
}
