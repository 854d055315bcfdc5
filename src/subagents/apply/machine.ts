import { readFileSync } from "node:fs";
import { join } from "node:path";
import { spanned } from "../../core/printed.js";
import { errorMessage, TandemError } from "../../errors.js";
import { crashPoint } from "../../testing/crash.js";
import { mboxSubject } from "../capture/mbox.js";
import {
  abortAm,
  applyPatch,
  currentAmCommit,
  failedPaths,
  type GitResult,
  headOf,
  operationInProgress,
  stagedPaths,
  treeBlobs,
  unmergedPaths,
  unstage,
} from "../shared/git.js";
import { short } from "../shared/ids.js";
import type { PreApply } from "../shared/records.js";
import { ApplyRaceLost, applyKey, type Run, record, staged } from "./record.js";
import { type ApplyOutcome, outcome } from "./types.js";

/** First `error:`/`fatal:` line of git's output, for one-line messages. */
export function gitError(r: GitResult): string {
  const lines = `${r.stderr}\n${r.stdout}`.split("\n").map((l) => l.trim());
  return lines.find((l) => /^(error|fatal):/.test(l)) ?? lines.find((l) => l !== "") ?? "git failed";
}

/** Unstages exactly what this apply staged: patch paths staged now that were not staged before. */
export function unstageNew(run: Run, stagedBefore: readonly string[]): void {
  const before = new Set(stagedBefore);
  const mine = new Set(run.art.patchPaths);
  const now = new Set([...stagedPaths(run.top), ...unmergedPaths(run.top)]);
  unstage(
    run.top,
    [...now].filter((p) => mine.has(p) && !before.has(p)),
  );
}

/** Records completion with the post-apply HEAD; success is reported only after this is durable. */
export function complete(
  run: Run,
  fence: string,
  preApply: PreApply[],
  patchApplied: boolean,
  partial = false,
  /** HEAD when the caller knows it: `git apply` cannot move it. */
  knownHead: string | null = null,
): ApplyOutcome {
  crashPoint("apply:before-complete-record");
  const postHead = knownHead ?? headOf(run.top);
  if (postHead === null) {
    throw new TandemError(
      `the target ${run.top} has no HEAD after the apply; inspect it (git status, git log).`,
    );
  }
  const commitsApplied = run.art.commits.length;
  const data = {
    ...applyKey(run),
    fence,
    seriesBase: run.art.seriesBase,
    postHead,
    appliedChildHead: run.art.childHead,
    commitsApplied,
    patchApplied,
    partial,
    preApply,
  };
  try {
    record(run, [{ kind: "apply.completed", data }]);
  } catch (err) {
    if (err instanceof ApplyRaceLost) throw err;
    // The work is in; only the record is missing. A retry reconciles from the markers.
    throw new TandemError(
      `the changes are in the target, but recording the completion failed (${errorMessage(err)}); do not apply them again by hand: run ${spanned(run.ctx.printer, "sub", "apply", run.req.sub.id)} again once the store is writable.`,
    );
  }
  const what = [
    commitsApplied ? `${commitsApplied} commit(s)` : "",
    patchApplied ? "the uncommitted changes (left uncommitted and unstaged)" : "",
  ].filter(Boolean);
  const nothing = what.length === 0;
  return outcome(run.req, run.art.capture.id, {
    outcome: nothing ? "nothing-to-apply" : "applied",
    commitsApplied,
    worktreePatchApplied: patchApplied,
    postHead,
    warnings: run.warnings,
    message: nothing
      ? "nothing to apply: the capture holds no commits and no uncommitted changes."
      : `applied ${what.join(" and ")}${partial ? " (completion acknowledged as resolved by hand)" : ""}; HEAD is ${short(postHead)}.`,
  });
}

/** Runs the worktree stage: marker (staged set and pre-apply blobs), three-way apply, unstage, complete. */
export function worktreeStage(
  run: Run,
  fence: string,
  amHead: string,
  patch: string | null,
  carried: readonly string[],
): ApplyOutcome {
  if (patch === null) return complete(run, fence, [], false);
  const stagedBefore = [...new Set([...stagedPaths(run.top), ...carried])];
  const blobs = treeBlobs(run.top, amHead, run.art.patchPaths);
  const preApply = run.art.patchPaths.map((path) => ({ path, blob: blobs.get(path) ?? null }));
  record(run, [
    staged(run, {
      stage: "worktree-started",
      fence,
      seriesBase: run.art.seriesBase,
      seriesBlob: run.art.seriesBlob,
      amHead,
      stagedBefore,
      preApply,
    }),
  ]);
  const r = applyPatch(run.top, patch, "3way");
  crashPoint("apply:after-worktree-patch");
  if (!r.ok) return worktreeFailed(run, patch, stagedBefore, r);
  // A plain apply never touches the index; only the three-way merge stages what it merged.
  if (!r.plain) unstageNew(run, stagedBefore);
  return complete(run, fence, preApply, true, false, amHead);
}

export function blockedOutcome(run: Run, paths: string[], reason: string): ApplyOutcome {
  const how = paths.length
    ? `resolve the conflicts in ${paths.join(", ")} (edit the files, remove the markers)`
    : "make the files hold the changes you want";
  return outcome(run.req, run.art.capture.id, {
    outcome: "blocked",
    paths,
    warnings: run.warnings,
    message: `${reason}; the apply is blocked. To finish: ${how}, then run ${spanned(run.ctx.printer, "sub", "apply", run.req.sub.id, "--acknowledge-partial")} in ${run.top}.`,
  });
}

function worktreeFailed(run: Run, patch: string, stagedBefore: string[], r: GitResult): ApplyOutcome {
  const unmerged = unmergedPaths(run.top).filter((p) => run.art.patchPaths.includes(p));
  // Conflicts, or a patch that no longer applies at all after git gave up: something landed.
  const nothingLanded = unmerged.length === 0 && applyPatch(run.top, patch, "check").ok;
  if (!nothingLanded) {
    unstageNew(run, [...stagedBefore, ...unmerged]);
    const reason = unmerged.length
      ? "the uncommitted changes conflict with the target"
      : "the uncommitted changes applied only in part";
    record(run, [{ kind: "apply.blocked", data: { ...applyKey(run), paths: unmerged, message: reason } }]);
    return blockedOutcome(run, unmerged, reason);
  }
  const commits = run.art.commits.length > 0;
  const paths = failedPaths(r.stderr);
  const message = `the uncommitted changes did not apply: ${gitError(r)}${commits ? "; the commits are in, and a retry continues with the uncommitted changes" : "; nothing was changed"}`;
  record(run, [
    {
      kind: "apply.failed",
      data: {
        ...applyKey(run),
        stage: "worktree-started",
        message,
        failingCommit: null,
        paths,
        next: commits ? "commits-applied" : "none",
      },
    },
  ]);
  return outcome(run.req, run.art.capture.id, { outcome: "failed", paths, warnings: run.warnings, message });
}

/** A failed `git am`: abort it, prove HEAD is back at the fence, clear the marker, name the commit. */
export function amFailed(run: Run, fence: string, r: GitResult): ApplyOutcome {
  const failing = currentAmCommit(run.top);
  const paths = failedPaths(`${r.stderr}\n${r.stdout}`);
  const aborted = operationInProgress(run.top) === "am" ? abortAm(run.top) : true;
  const clean = aborted && headOf(run.top) === fence && operationInProgress(run.top) !== "am";
  const mbox = failing ? run.art.readMbox() : null;
  const subject = failing && mbox ? mboxSubject(mbox.toString("utf8"), failing) : null;
  const which = failing
    ? `child commit ${short(failing)}${subject ? ` "${subject}"` : ""}`
    : "the commit series";
  const where = paths.length ? ` (conflicting paths: ${paths.join(", ")})` : "";
  const message = clean
    ? `git am failed at ${which}${where}: ${gitError(r)}; it was aborted and the target is as it was.`
    : `git am failed at ${which}${where}: ${gitError(r)}; aborting it did not bring HEAD back to ${short(fence)}, so the apply stays marked as started. Inspect the target (git status, git am --show-current-patch) before anything else.`;
  record(run, [
    {
      kind: "apply.failed",
      data: {
        ...applyKey(run),
        stage: "am-started",
        message,
        failingCommit: failing,
        paths,
        next: clean ? "none" : "unchanged",
      },
    },
  ]);
  return outcome(run.req, run.art.capture.id, {
    outcome: "failed",
    failingCommit: failing,
    paths,
    warnings: run.warnings,
    message,
  });
}

/** Conflicted files that still hold git's conflict markers. */
export function markersLeft(top: string, paths: readonly string[]): string[] {
  return paths.filter((p) => {
    try {
      const text = readFileSync(join(top, p), "latin1");
      return /^<{7}(?: |$)/m.test(text) && /^>{7}(?: |$)/m.test(text);
    } catch {
      return false;
    }
  });
}
