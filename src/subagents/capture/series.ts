import { errorMessage } from "../../errors.js";
import { blobTempPath, ensureBlobsDir, writeBlobFromFile } from "../../store/blobs/files.js";
import { isAncestor } from "../shared/git.js";
import type { SeriesRecord } from "../shared/records.js";
import { inspectRange, streamFormatPatch } from "./git.js";

/** A target and the child commit it already holds from an earlier completed apply. */
export interface AppliedBase {
  target: string;
  appliedChildHead: string;
}

/**
 * The commit series from `from` to the child's `head` as its own mbox blob: what
 * a target that already holds `from` still lacks (docs/product.md §7.2). A child whose
 * history no longer contains `from` (amended or rebased after that apply) gets
 * an error instead, so apply there refuses rather than offering a landed commit.
 */
async function seriesFrom(
  worktree: string,
  blobsDir: string,
  from: string,
  head: string,
): Promise<SeriesRecord> {
  const base = { base: from, commitCount: 0, mboxBlob: null, mboxBytes: 0, error: null };
  if (from === head) return { target: "", ...base };
  if (!isAncestor(worktree, from, head)) {
    return {
      target: "",
      ...base,
      error: `the child's history no longer contains ${from.slice(0, 12)}, which this target already has`,
    };
  }
  const range = inspectRange(worktree, from, head);
  if (range.commitCount === 0) return { target: "", ...base };
  ensureBlobsDir(blobsDir);
  const tmp = blobTempPath(blobsDir);
  const out = await streamFormatPatch(worktree, from, head, tmp, Number.POSITIVE_INFINITY);
  if (out.exceeded) throw new Error("format-patch output exceeded its cap");
  const ref = writeBlobFromFile(blobsDir, tmp);
  return { target: "", ...base, commitCount: range.commitCount, mboxBlob: ref.sha256, mboxBytes: ref.bytes };
}

/** One series per target whose applied child head differs from the capture's base. */
/** A target that gets no series from this capture, and why; apply there refuses until a new capture. */
function noSeries(a: AppliedBase, error: string): SeriesRecord {
  return { target: a.target, base: a.appliedChildHead, commitCount: 0, mboxBlob: null, mboxBytes: 0, error };
}

export async function targetSeries(
  worktree: string,
  blobsDir: string,
  base: string,
  head: string | null,
  applied: readonly AppliedBase[],
): Promise<SeriesRecord[]> {
  const out: SeriesRecord[] = [];
  for (const a of applied) {
    if (a.appliedChildHead === base) continue;
    if (head === null) {
      out.push(noSeries(a, "the capture could not read the child's HEAD"));
      continue;
    }
    try {
      out.push({ ...(await seriesFrom(worktree, blobsDir, a.appliedChildHead, head)), target: a.target });
    } catch (err) {
      out.push(noSeries(a, `could not make this target's series: ${errorMessage(err)}`));
    }
  }
  return out;
}
