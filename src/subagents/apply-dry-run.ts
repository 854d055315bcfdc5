import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { git, gitStatus } from "../git/run.js";
import { gateFacts, preflightFacts, refused } from "./apply-fresh.js";
import {
  applyPatch,
  currentAmCommit,
  failedPaths,
  headOf,
  isAncestor,
  NO_HOOKS,
  operationInProgress,
  runAm,
  unmergedPaths,
} from "./apply-git.js";
import { blockedOutcome, gitError, markersLeft } from "./apply-machine.js";
import { gates, preflight } from "./apply-preflight.js";
import type { Run } from "./apply-record.js";
import { AM_IN_PROGRESS, commitFacts, failClosedMessage, worktreeDecision } from "./apply-resume.js";
import { type ApplyOutcome, outcome } from "./apply-types.js";
import { short } from "./ids.js";
import { partialRefusal, reconcileCommits } from "./reconcile.js";
import type { ApplyRecord } from "./records.js";

function removeScratch(top: string, dir: string): void {
  if (gitStatus(top, ["worktree", "remove", "--force", "--force", dir]).status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    gitStatus(top, ["worktree", "prune"]);
  }
}

/**
 * Runs the remaining steps in a temporary detached worktree at `head` and
 * removes it; the target is never touched. `am` is false when the commits
 * already landed in the target, so they are never applied a second time.
 */
function simulate(run: Run, head: string, am: boolean): ApplyOutcome {
  const { art } = run;
  mkdirSync(run.ctx.scratchDir, { recursive: true });
  const dir = join(
    run.ctx.scratchDir,
    `dry-${process.getBuiltinModule("node:crypto").randomBytes(6).toString("hex")}`,
  );
  git(run.top, [...NO_HOOKS, "worktree", "add", "--detach", "-q", dir, head]);
  try {
    const commits = am ? art.commits.length : 0;
    if (commits > 0) {
      const r = runAm(dir, art.mboxFile!, NO_HOOKS);
      if (!r.ok) {
        const failing = currentAmCommit(dir);
        const paths = failedPaths(`${r.stderr}\n${r.stdout}`);
        return outcome(run.req, art.capture.id, {
          outcome: "failed",
          failingCommit: failing,
          paths,
          warnings: run.warnings,
          message: `dry run: git am would fail at child commit ${short(failing)}${paths.length ? ` (conflicting paths: ${paths.join(", ")})` : ""}: ${gitError(r)}.`,
        });
      }
    }
    if (art.patchFile && !applyPatch(dir, art.patchFile, "3way", NO_HOOKS).ok) {
      const paths = unmergedPaths(dir);
      return outcome(run.req, art.capture.id, {
        outcome: "blocked",
        paths,
        warnings: run.warnings,
        message: `dry run: the uncommitted changes would ${paths.length ? `conflict in ${paths.join(", ")}` : "not apply"}.`,
      });
    }
    const steps = [commits ? `${commits} commit(s)` : "", art.patchFile ? "the uncommitted changes" : ""];
    const what = steps.filter(Boolean).join(" and ") || "nothing";
    return outcome(run.req, art.capture.id, {
      outcome: "would-apply",
      commitsApplied: commits,
      worktreePatchApplied: art.patchFile !== null,
      warnings: run.warnings,
      message: `dry run: ${what} would apply cleanly${am ? "" : " (the commits are already in the target)"}; nothing was changed.`,
    });
  } finally {
    removeScratch(run.top, dir);
  }
}

/** A dry run of a fresh apply: the same preflight, then the steps in a scratch worktree. */
export function dryFresh(run: Run, running: boolean): ApplyOutcome {
  const facts = preflightFacts(run, running);
  const verdict = preflight(facts);
  if (!verdict.ok) return refused(run, `dry run: ${verdict.reason}`, verdict.paths);
  run.warnings.push(...verdict.warnings);
  if (run.art.commits.length === 0 && !run.art.patchFile) {
    return outcome(run.req, run.art.capture.id, {
      outcome: "would-apply",
      warnings: run.warnings,
      message: "dry run: nothing to apply (no commits, no uncommitted changes).",
    });
  }
  return simulate(run, facts.head!, true);
}

function wouldAcknowledge(run: Run, row: ApplyRecord, head: string): ApplyOutcome {
  const refusal = partialRefusal({
    amInProgress: operationInProgress(run.top) === "am",
    fenceIsAncestor: isAncestor(run.top, row.fence!, head),
    markersLeft: markersLeft(run.top, row.paths),
  });
  if (refusal) return refused(run, `dry run: cannot acknowledge: ${refusal}.`, row.paths);
  return outcome(run.req, run.art.capture.id, {
    outcome: "would-apply",
    warnings: run.warnings,
    message: "dry run: the apply would be recorded as completed by hand; nothing was changed.",
  });
}

/** A dry run that follows the recorded state of an interrupted apply; null: start fresh. */
export function dryResume(run: Run, row: ApplyRecord, running: boolean): ApplyOutcome | null {
  const gate = gates({ ...gateFacts(run, row.ackUncaptured), running });
  if (!gate.ok) return refused(run, `dry run: ${gate.reason}`, gate.paths);
  run.warnings.push(...gate.warnings);
  if (run.req.expectedHead !== null && run.req.expectedHead !== row.fence) {
    return refused(
      run,
      `dry run: --expected-head is not the recorded pre-apply HEAD ${short(row.fence)}.`,
      [],
    );
  }
  const decision = reconcileCommits(commitFacts(run, row));
  const head = headOf(run.top);
  if (decision.kind === "fresh") return null;
  if (decision.kind === "am-in-progress") return refused(run, `dry run: ${AM_IN_PROGRESS}`, []);
  if (decision.kind === "fail-closed") {
    if (run.req.ackPartial && head) return wouldAcknowledge(run, row, head);
    return refused(run, `dry run: ${failClosedMessage(row, decision.reason)}`, []);
  }
  const before = row.stage === "am-started" || row.stage === "commits-applied";
  if (before || !run.art.patchFile) return simulate(run, head!, false);
  const wd = worktreeDecision(run);
  if (wd.kind === "apply") return simulate(run, head!, false);
  if (wd.kind === "finish") {
    return outcome(run.req, run.art.capture.id, {
      outcome: "would-apply",
      warnings: run.warnings,
      message:
        "dry run: the uncommitted changes are already in the target; apply would unstage them and record completion.",
    });
  }
  if (run.req.ackPartial) return wouldAcknowledge(run, row, head!);
  const blocked = blockedOutcome(run, wd.paths, `dry run: ${wd.reason}`);
  return blocked;
}
