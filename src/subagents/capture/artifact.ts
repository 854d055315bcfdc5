import { ConflictMarkerScanner } from "../../core/git/conflict-markers.js";
import { spanned } from "../../core/printed.js";
import { TandemError } from "../../errors.js";
import { blobPath, readBlob, streamBlob } from "../../store/blobs/files.js";
import { artifactsExpired } from "../../store/subagents/rows.js";
import type { SubCtx } from "../shared/ctx.js";
import { short } from "../shared/ids.js";
import { type ApplyRecord, type CaptureRecord, recordedPatchPaths } from "../shared/records.js";
import { PatchScanner } from "./patch-scan.js";

/** One capture as offered to one target: which commits, which patch, which paths. */
export interface Artifact {
  capture: CaptureRecord;
  seriesBase: string;
  seriesBlob: string | null;
  /** A commit the target's HEAD must contain for a fresh apply. */
  anchor: string;
  /** Why this target cannot get this capture (refused before anything changes). */
  error: string | null;
  mboxFile: string | null;
  /** The mbox's bytes, read (and verified) when needed: a failed am's subject, a crashed apply's patch ids. */
  readMbox(): Buffer | null;
  /** Child commit ids of the series, in order. */
  commits: string[];
  patchFile: string | null;
  seriesPaths: string[];
  patchPaths: string[];
  /** Paths the stored uncommitted patch fills with conflict markers, read from its bytes. */
  conflictMarkers: string[];
  /** The child commit the target holds once this artifact is in (the base of its later series). */
  childHead: string;
}

function corrupt(ctx: SubCtx, sha: string, err: unknown): TandemError {
  return new TandemError(
    `artifact blob ${sha} is missing or corrupt (${(err as Error).message.split("\n")[0]}); capture again with ${spanned(ctx.printer, "sub", "capture", { slot: "NAME" })}.`,
  );
}

/** `tandem gc` deleted this sub-agent's artifacts (docs/decisions/0012): say so, not "corrupt". */
function refuseExpired(ctx: SubCtx, capture: CaptureRecord): void {
  if (!artifactsExpired(ctx.db, capture.subId)) return;
  throw new TandemError(
    `the artifacts of ${capture.subId} were deleted by gc: it was applied and removed longer ago than the retention bound, so there is nothing left to apply or show.`,
  );
}

function load(ctx: SubCtx, sha: string): Buffer {
  try {
    return readBlob(ctx.blobsDir, sha);
  } catch (err) {
    throw corrupt(ctx, sha, err);
  }
}

/** Paths and commit ids of a stored patch or mbox, verified against its name as it streams. */
function scan(ctx: SubCtx, sha: string, kind: "mbox" | "diff"): { paths: Set<string>; commits: string[] } {
  const scanner = new PatchScanner(kind);
  try {
    streamBlob(ctx.blobsDir, sha, (chunk) => scanner.push(chunk));
  } catch (err) {
    throw corrupt(ctx, sha, err);
  }
  return scanner.end();
}

/**
 * The uncommitted patch's paths (as the capture read them while git wrote the patch, or scanned
 * afresh for a capture that did not keep them) and the paths it fills with conflict markers, from
 * one pass over the blob's verified bytes.
 */
function patchFacts(
  ctx: SubCtx,
  capture: CaptureRecord,
  sha: string,
): { paths: string[]; markers: string[] } {
  const kept = recordedPatchPaths(ctx.db, capture);
  const scanner = kept === null ? new PatchScanner("diff") : null;
  const markers = new ConflictMarkerScanner();
  try {
    streamBlob(ctx.blobsDir, sha, (chunk) => {
      scanner?.push(chunk);
      markers.push(chunk);
    });
  } catch (err) {
    throw corrupt(ctx, sha, err);
  }
  return { paths: scanner ? [...scanner.end().paths] : (kept ?? []), markers: markers.end() };
}

function build(
  ctx: SubCtx,
  capture: CaptureRecord,
  series: { base: string; blob: string | null; commitCount: number; anchor: string; error: string | null },
): Artifact {
  refuseExpired(ctx, capture);
  const mbox = series.blob ? scan(ctx, series.blob, "mbox") : null;
  const patch = capture.patchBlob ? patchFacts(ctx, capture, capture.patchBlob) : null;
  const commits = mbox?.commits ?? [];
  let error = series.error;
  if (mbox && commits.length !== series.commitCount) {
    error = `the commit series holds ${commits.length} messages but ${series.commitCount} commits were recorded`;
  }
  const mboxBlob = series.blob;
  return {
    capture,
    seriesBase: series.base,
    seriesBlob: series.blob,
    anchor: series.anchor,
    error,
    mboxFile: mboxBlob ? blobPath(ctx.blobsDir, mboxBlob) : null,
    readMbox: () => (mboxBlob ? load(ctx, mboxBlob) : null),
    commits,
    patchFile: capture.patchBlob ? blobPath(ctx.blobsDir, capture.patchBlob) : null,
    seriesPaths: mbox ? [...mbox.paths] : [],
    patchPaths: patch?.paths ?? [],
    conflictMarkers: patch?.markers ?? [],
    // Commits that were not captured do not land, so later series must still offer them.
    childHead: series.commitCount > 0 && !mbox ? series.base : (capture.head ?? series.base),
  };
}

/**
 * The series a fresh apply offers `target`: the whole capture, or, when the
 * target already holds commits of this child from an earlier completed apply,
 * only what came after them (docs/product.md §7.2). A capture made before that apply
 * completed has no such series, and the target is told to capture again.
 */
export function artifactFor(ctx: SubCtx, capture: CaptureRecord, row: ApplyRecord | null): Artifact {
  const held = row?.appliedChildHead ?? capture.base;
  if (held === capture.base) {
    return build(ctx, capture, {
      base: capture.base,
      blob: capture.mboxBlob,
      commitCount: capture.commitCount,
      anchor: capture.base,
      error: null,
    });
  }
  const s = capture.series.find((x) => x.target === row!.target && x.base === held);
  if (!s) {
    return build(ctx, capture, {
      base: held,
      blob: null,
      commitCount: 0,
      anchor: row!.postHead ?? held,
      error: `this target already holds the child's commits up to ${short(held)} from an earlier apply, and capture ${capture.number} predates that; run ${spanned(ctx.printer, "sub", "capture", capture.subId)} again`,
    });
  }
  return build(ctx, capture, {
    base: s.base,
    blob: s.mboxBlob,
    commitCount: s.commitCount,
    anchor: row!.postHead ?? held,
    error: s.error,
  });
}

/** The artifact an interrupted apply was using, exactly as its marker recorded it. */
export function artifactOfRow(ctx: SubCtx, capture: CaptureRecord, row: ApplyRecord): Artifact {
  const base = row.seriesBase ?? capture.base;
  const mine =
    base === capture.base
      ? capture.commitCount
      : capture.series.find((s) => s.base === base && s.target === row.target)?.commitCount;
  return build(ctx, capture, {
    base,
    blob: row.seriesBlob,
    commitCount: mine ?? 0,
    anchor: row.fence ?? base,
    error: null,
  });
}
