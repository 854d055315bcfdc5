import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConflictMarkerScanner } from "../../core/git/conflict-markers.js";
import { GitError } from "../../git/run.js";
import { blobTempPath, ensureBlobsDir, writeBlobFromFile } from "../../store/blobs/files.js";
import type { CaptureResult } from "../../store/subagents/types.js";
import { inspectRange, locateRepo, type RepoInfo, streamFormatPatch } from "./git.js";
import { operationFrom, readOperationFiles } from "./operation.js";
import { PatchScanner } from "./patch-scan.js";
import { snapshotWorktree } from "./snapshot.js";
import { type DirtyState, dirtyBytes, readDirtyState } from "./status.js";

export type { CaptureResult, Uncaptured, UncapturedReason } from "../../store/subagents/types.js";

export interface CaptureOptions {
  worktree: string;
  /** Full commit id the child started from (or the head of an earlier applied capture). */
  base: string;
  blobsDir: string;
  maxDirtyBytes: number;
  maxPatchBytes: number;
  /** Cap on the commit series mbox; unlimited when absent. */
  maxMboxBytes?: number;
  /** Parent of the private index/object directory; defaults to the OS temp dir. */
  tmpDir?: string;
  crashAt?: (point: string) => void;
}

interface Ctx {
  opts: CaptureOptions;
  repo: RepoInfo;
  result: CaptureResult;
  tmpRoot: string;
  temps: string[];
  /** Unmerged paths from the dirty state, for the in-progress record. */
  unmerged: string[];
}

const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const FAILED_PREFIX = "capture-failed: ";

/** One line naming the failed step; GitError messages would otherwise repeat all the `-c` overrides. */
function describe(err: unknown): string {
  if (err instanceof GitError) {
    let i = 0;
    while (err.args[i] === "-c") i += 2;
    const lines = err.stderr.split("\n").filter((l) => l.trim() !== "");
    const detail =
      lines.find((l) => /^(fatal|error):/.test(l)) ?? lines[0] ?? `exit ${err.status ?? "signal"}`;
    return `git ${err.args[i] ?? ""} failed: ${detail}`;
  }
  const message = err instanceof Error ? err.message : String(err);
  return message.split("\n")[0] ?? message;
}

function fail(result: CaptureResult, err: unknown, paths: string[]): void {
  result.uncaptured.push({ reason: `${FAILED_PREFIX}${describe(err)}`, paths });
}

function newTemp(ctx: Ctx): string {
  const file = blobTempPath(ctx.opts.blobsDir);
  ctx.temps.push(file);
  return file;
}

async function captureCommits(ctx: Ctx): Promise<void> {
  const { opts, repo, result } = ctx;
  if (repo.head === opts.base) return;
  const range = inspectRange(repo.top, opts.base, repo.head);
  result.commitCount = range.commitCount;
  // format-patch drops merges: a conflict resolution or evil merge would vanish unnoticed.
  if (range.merges.length > 0) result.uncaptured.push({ reason: "merge-commits", paths: range.merges });
  if (range.commitCount === 0) return;
  const tmp = newTemp(ctx);
  const max = opts.maxMboxBytes ?? Number.POSITIVE_INFINITY;
  const out = await streamFormatPatch(repo.top, opts.base, repo.head, tmp, max);
  if (out.exceeded) {
    result.uncaptured.push({ reason: "mbox-size-exceeded", paths: [] });
    return;
  }
  const ref = writeBlobFromFile(opts.blobsDir, tmp);
  result.mboxBlob = ref.sha256;
  result.mboxBytes = ref.bytes;
}

function reportExclusions(result: CaptureResult, state: DirtyState): void {
  // A gitlink would name a commit that exists only in the child.
  if (state.submodules.length > 0) {
    result.uncaptured.push({ reason: "dirty-submodule", paths: state.submodules });
  }
  if (state.embeddedRepos.length > 0) {
    result.uncaptured.push({ reason: "embedded-repository", paths: state.embeddedRepos });
  }
}

async function snapshotDirty(ctx: Ctx, state: DirtyState): Promise<void> {
  const { opts, repo, result } = ctx;
  if (dirtyBytes(repo.top, state.capturable) > opts.maxDirtyBytes) {
    result.uncaptured.push({ reason: "dirty-size-exceeded", paths: state.capturable });
    return;
  }
  const excluded = [...state.submodules, ...state.embeddedRepos];
  const tmp = newTemp(ctx);
  const scanner = new PatchScanner("diff");
  const markers = new ConflictMarkerScanner();
  const out = await snapshotWorktree(repo, excluded, ctx.tmpRoot, tmp, opts.maxPatchBytes, (chunk) => {
    scanner.push(chunk);
    markers.push(chunk);
  });
  if (out.exceeded) {
    result.uncaptured.push({ reason: "patch-size-exceeded", paths: state.capturable });
    return;
  }
  // Status can list a path whose worktree matches HEAD (staged, then reverted): nothing to store.
  if (out.bytes === 0) return;
  const ref = writeBlobFromFile(opts.blobsDir, tmp);
  result.patchBlob = ref.sha256;
  result.patchBytes = ref.bytes;
  result.patchPaths = [...scanner.end().paths];
  result.conflictMarkers = markers.end();
}

async function captureDirty(ctx: Ctx): Promise<void> {
  const { result } = ctx;
  let state: DirtyState;
  try {
    state = readDirtyState(ctx.repo.top);
  } catch (err) {
    // Unknown is not clean.
    result.hadUncommittedChanges = true;
    fail(result, err, []);
    return;
  }
  result.dirtyPaths = state.allPaths;
  ctx.unmerged = state.records.filter((r) => r.kind === "unmerged").map((r) => r.path);
  result.hadUncommittedChanges = state.records.length > 0;
  reportExclusions(result, state);
  if (state.capturable.length === 0) return;
  try {
    await snapshotDirty(ctx, state);
  } catch (err) {
    fail(result, err, state.capturable);
  }
}

function validate(opts: CaptureOptions): void {
  if (!FULL_SHA.test(opts.base)) {
    throw new Error(`base must be a full commit id, got ${JSON.stringify(opts.base)}`);
  }
  for (const key of ["maxDirtyBytes", "maxPatchBytes"] as const) {
    if (!(opts[key] >= 0)) throw new Error(`${key} must be a non-negative number`);
  }
}

function emptyResult(base: string): CaptureResult {
  return {
    ok: false,
    base,
    head: null,
    commitCount: 0,
    mboxBlob: null,
    mboxBytes: 0,
    patchBlob: null,
    patchBytes: 0,
    hadUncommittedChanges: false,
    dirtyPaths: [],
    uncaptured: [],
    patchPaths: null,
    inProgress: null,
    conflictMarkers: [],
  };
}

function cleanup(temps: readonly string[], tmpRoot: string | null): void {
  for (const path of [...temps, ...(tmpRoot ? [tmpRoot] : [])]) {
    try {
      rmSync(path, { recursive: true, force: true });
    } catch {
      // A leftover temp file is litter, not lost work; never let it mask the result.
    }
  }
}

/**
 * Captures everything the child did relative to `base`: the commit series as an
 * mbox blob and the uncommitted worktree as a patch blob. Read-only with respect
 * to the child. Never throws for capture problems: every failure is reported in
 * `uncaptured` with `ok: false`, and an undeterminable dirty state counts as dirty.
 * Blobs are durable before this resolves; the caller records the artifact.
 */
export async function captureWorktree(opts: CaptureOptions): Promise<CaptureResult> {
  const result = emptyResult(opts.base);
  const temps: string[] = [];
  let tmpRoot: string | null = null;
  try {
    validate(opts);
    ensureBlobsDir(opts.blobsDir);
    tmpRoot = mkdtempSync(join(opts.tmpDir ?? tmpdir(), "tandem-capture-"));
    const repo = locateRepo(opts.worktree, opts.base);
    result.head = repo.head;
    const ctx: Ctx = { opts, repo, result, tmpRoot, temps, unmerged: [] };
    // Each phase fails on its own so a broken commit series never hides dirty work, or vice versa.
    await captureCommits(ctx).catch((err: unknown) => fail(result, err, []));
    await captureDirty(ctx);
    result.inProgress = operationFrom(readOperationFiles(repo.gitDir), ctx.unmerged);
  } catch (err) {
    result.hadUncommittedChanges = true;
    fail(result, err, []);
  } finally {
    cleanup(temps, tmpRoot);
  }
  result.ok = !result.uncaptured.some((u) => u.reason.startsWith(FAILED_PREFIX));
  opts.crashAt?.("capture:after-blob-write");
  return result;
}
