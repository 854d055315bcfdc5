/**
 * prepare-commit-msg (issue 40 item 5, decision 0073): a commit of files Tandem tracks by lines
 * (every file `tandem stage` staged) carries trailers naming each agent session whose hunks it
 * holds, with its client and task, so the provenance travels with the commit. Written by
 * `git interpret-trailers`; a person's lines (unattributed) add none.
 */
import { hunksNow, readTexts } from "../claims/line-authors.js";
import { carriedHunks } from "../core/guards/commit-lines.js";
import { splitLines } from "../core/lines/diff.js";
import { UNATTRIBUTED } from "../core/lines/layout.js";
import type { TrailerSession } from "../core/provenance/trailers.js";
import { git } from "../git/run.js";
import { lineAuthors } from "../store/claims/line-authors.js";
import { sessionById } from "../store/sessions/rows.js";
import { type LineCommitCtx, stagedText } from "./commit-lines.js";

/** The sessions whose hunks the staged texts of `staged` (paths relative to the top) carry, in order. */
export function stagedAuthors(ctx: LineCommitCtx, staged: readonly string[]): TrailerSession[] {
  const ids: string[] = [];
  for (const rel of staged) {
    const row = lineAuthors(ctx.db, ctx.repoTop, rel);
    const texts = row ? readTexts(ctx.repoTop, rel) : null;
    const staging = texts ? stagedText(ctx, rel) : null;
    if (!row || !texts || staging === null) continue;
    const hunks = hunksNow(texts, row, null);
    for (const h of carriedHunks(splitLines(texts.base), splitLines(staging), hunks))
      for (const o of h.owners) if (o !== UNATTRIBUTED && !ids.includes(o)) ids.push(o);
  }
  return ids.flatMap((id) => {
    const s = sessionById(ctx.db, id);
    return s ? [{ id, name: s.name, client: s.client, task: s.task }] : [];
  });
}

/** Adds `lines` to the message file git is preparing; a trailer already there is not repeated. */
export function addTrailers(repoTop: string, messageFile: string, lines: readonly string[]): void {
  if (lines.length === 0) return;
  const args = ["interpret-trailers", "--in-place", "--if-exists", "addIfDifferent"];
  for (const l of lines) args.push("--trailer", l);
  git(repoTop, [...args, "--", messageFile]);
}
