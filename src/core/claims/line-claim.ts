/**
 * The line claim (decision 0061): an edit tool's write to a file a live peer holds is allowed
 * when it changes nothing within `margin` lines of a peer's uncommitted hunk; what it leaves is
 * then the three-way merge of both. Pure over the texts, so the gate only reads them.
 */
import { diffLines } from "../lines/diff.js";
import type { OwnedHunk } from "../lines/layout.js";
import { touches } from "../lines/merge.js";

export interface LineClaimRequest {
  /** The file now, with its hunks' authors (current-text coordinates). */
  current: readonly string[];
  hunks: readonly OwnedHunk[];
  /** The file as the tool would leave it. */
  proposed: readonly string[];
  /** Whether an author's hunks are held against the caller (a live peer outside its group). */
  blocks: (owner: string) => boolean;
  margin: number;
}

/** A peer's hunk the call would touch, in 1-based inclusive lines of the current file. */
export interface LineOverlap {
  owner: string;
  first: number;
  last: number;
  /** The call would also remove the hunk's lines (a Write from a stale copy, say). */
  drops: boolean;
}

export type LineClaimVerdict = { allow: true } | { allow: false; overlaps: LineOverlap[] };

function overlapOf(h: OwnedHunk, owner: string, dropped: boolean): LineOverlap {
  const first = h.bStart + 1;
  return { owner, first, last: Math.max(first, h.bEnd), drops: dropped };
}

export function decideLineClaim(req: LineClaimRequest): LineClaimVerdict {
  const delta = diffLines(req.current, req.proposed);
  const overlaps: LineOverlap[] = [];
  for (const h of req.hunks) {
    const owners = h.owners.filter(req.blocks);
    if (owners.length === 0) continue;
    const hit = delta.filter((d) =>
      touches({ start: d.aStart, end: d.aEnd }, { start: h.bStart, end: h.bEnd }, req.margin),
    );
    if (hit.length === 0) continue;
    const drops = hit.some((d) => d.aStart < h.bEnd && d.aEnd > h.bStart);
    for (const o of owners) overlaps.push(overlapOf(h, o, drops));
  }
  return overlaps.length === 0 ? { allow: true } : { allow: false, overlaps };
}

/** A file an edit tool was refused by lines: the peers' hunks it would touch, their authors named. */
export interface LineRefusal {
  raw: string;
  overlaps: (LineOverlap & { name: string })[];
  margin: number;
}
