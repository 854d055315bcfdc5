/**
 * Which peers' hunks a staged file carries (decision 0061), pure: a staged change touching the
 * base lines a peer's hunk replaced carries (some of) that hunk; one that leaves them as in the
 * base does not. The pre-commit check refuses the first and lets the second through.
 */
import { diffLines } from "../lines/diff.js";
import type { OwnedHunk } from "../lines/layout.js";
import { touches } from "../lines/merge.js";

export function carriedHunks(
  base: readonly string[],
  staged: readonly string[],
  peers: readonly OwnedHunk[],
): OwnedHunk[] {
  const changes = diffLines(base, staged);
  return peers.filter((p) =>
    changes.some((c) => touches({ start: c.aStart, end: c.aEnd }, { start: p.aStart, end: p.aEnd }, 0)),
  );
}

/** `lines 4–6` of the working file, for a message. */
export function linesText(h: OwnedHunk): string {
  const first = h.bStart + 1;
  return h.bEnd <= first ? `line ${first}` : `lines ${first}–${h.bEnd}`;
}
