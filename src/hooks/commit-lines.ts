/**
 * The pre-commit check for files shared by lines (decision 0061): a staged file whose hunks Tandem
 * knows is judged by them, not by its whole-file claim. A commit carrying a live peer's hunk is
 * refused; one carrying only the committer's (`tandem stage`) goes through though a peer holds
 * the file.
 */
import { holderOf } from "../claims/holders.js";
import { hunksNow, observeFile, readTexts } from "../claims/line-authors.js";
import type { HeldFile } from "../core/guards/commit-guard.js";
import { carriedHunks, linesText } from "../core/guards/commit-lines.js";
import { splitLines } from "../core/lines/diff.js";
import { UNATTRIBUTED } from "../core/lines/layout.js";
import { gitStatus } from "../git/run.js";
import { lineAuthors } from "../store/claims/line-authors.js";
import type { Db } from "../store/db.js";
import { sessionById } from "../store/sessions/rows.js";

export interface LineCommitCtx {
  db: Db;
  repoTop: string;
  now: number;
  freshness: number;
  /** GIT_INDEX_FILE when the commit stages into a temporary index. */
  index: Record<string, string> | undefined;
}

/** A live session outside the committer's group: its name, else null. */
function peerName(ctx: LineCommitCtx, owner: string, group: string | null): string | null {
  if (owner === UNATTRIBUTED) return null;
  const s = sessionById(ctx.db, owner);
  if (!s) return null;
  const h = holderOf(ctx.db, s, ctx.now, ctx.freshness);
  return h.live && h.group !== group ? h.name : null;
}

/** The file as the commit's index holds it; null when it is not staged there (removed). */
export function stagedText(ctx: LineCommitCtx, rel: string): string | null {
  const r = gitStatus(ctx.repoTop, ["cat-file", "blob", `:${rel}`], ctx.index ? { env: ctx.index } : {});
  return r.status === 0 ? r.stdout : null;
}

/**
 * For each staged path (relative to the top) Tandem tracks by lines, the peers' hunks it carries
 * (none: it may be committed). Paths it does not track are left out, to be judged by claims.
 */
export function judgeByLines(
  ctx: LineCommitCtx,
  staged: readonly string[],
  group: string | null,
): Map<string, HeldFile[]> {
  const out = new Map<string, HeldFile[]>();
  for (const rel of staged) {
    const row = lineAuthors(ctx.db, ctx.repoTop, rel);
    if (!row) continue;
    const texts = readTexts(ctx.repoTop, rel);
    const staging = texts ? stagedText(ctx, rel) : null;
    if (!texts || staging === null) continue;
    const found: HeldFile[] = [];
    const named = hunksNow(texts, row, null).flatMap((h) => {
      const names = h.owners.map((o) => peerName(ctx, o, group)).filter((n): n is string => n !== null);
      return names.length > 0 ? [{ h, names }] : [];
    });
    const carried = new Set(
      carriedHunks(
        splitLines(texts.base),
        splitLines(staging),
        named.map((n) => n.h),
      ),
    );
    for (const n of named)
      if (carried.has(n.h)) found.push({ path: rel, holder: n.names.join(", "), lines: linesText(n.h) });
    out.set(rel, found);
  }
  return out;
}

/**
 * After a commit, a claim on a dirty file shared by lines ends when its holder has no hunk left in
 * it (the commit took them): claims release per hunk. Re-reads the file's hunks against the new base.
 */
export function holderDone(ctx: LineCommitCtx, rel: string, holder: string): boolean {
  if (!lineAuthors(ctx.db, ctx.repoTop, rel)) return false;
  const hunks = observeFile(ctx.db, ctx.repoTop, rel, null, ctx.now);
  return hunks !== null && !hunks.some((h) => h.owners.includes(holder));
}
