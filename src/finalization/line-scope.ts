/**
 * The end-turn scope by hunks (decision 0061): in a file shared by lines the session answers for
 * its own hunks only. A file where it wrote hunks is in its scope though it never claimed it; a
 * file it claimed or touched whose every uncommitted hunk is a live peer's is not.
 */
import { holderOf } from "../claims/holders.js";
import { observeFile } from "../claims/line-authors.js";
import { UNATTRIBUTED } from "../core/lines/layout.js";
import { allLineAuthors } from "../store/claims/line-authors.js";
import type { Db } from "../store/db.js";
import { sessionById } from "../store/sessions/rows.js";
import type { LedgerPath } from "./peer-paths.js";

const keyOf = (p: LedgerPath) => `${p.worktree}\0${p.path}`;

/** A live session other than `session`: one that will commit its hunks itself. */
function livePeer(
  db: Db,
  session: string,
  now: number,
  freshnessSeconds: number,
): (owner: string) => boolean {
  return (owner) => {
    if (owner === session || owner === UNATTRIBUTED) return false;
    const s = sessionById(db, owner);
    return s ? holderOf(db, s, now, freshnessSeconds).live : false;
  };
}

export function scopeByHunks(
  db: Db,
  session: string,
  owned: readonly LedgerPath[],
  now: number,
  freshnessSeconds: number,
): LedgerPath[] {
  const rows = allLineAuthors(db);
  if (rows.length === 0) return [...owned];
  const mine: LedgerPath[] = [];
  const peer = livePeer(db, session, now, freshnessSeconds);
  const othersOnly = new Set<string>();
  for (const r of rows) {
    let hunks: ReturnType<typeof observeFile>;
    try {
      // Re-read against the file and HEAD now: a commit since the last hook took some hunks.
      hunks = observeFile(db, r.worktree, r.path, null, now);
    } catch {
      continue; // Unreadable now: judged by files, as before.
    }
    if (hunks === null) continue;
    const at = { worktree: r.worktree, path: r.path };
    if (hunks.some((h) => h.owners.includes(session))) mine.push(at);
    // Every hunk a live peer's: theirs to commit. A gone author's stay the holder's (left work).
    else if (hunks.length > 0 && hunks.every((h) => h.owners.some(peer))) othersOnly.add(keyOf(at));
  }
  const out = owned.filter((p) => !othersOnly.has(keyOf(p)));
  const seen = new Set(out.map(keyOf));
  return [...out, ...mine.filter((p) => !seen.has(keyOf(p)))];
}
