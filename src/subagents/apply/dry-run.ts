import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { git, gitStatus } from "../../git/run.js";
import { applyPatch, currentAmCommit, failedPaths, NO_HOOKS, runAm, unmergedPaths } from "../shared/git.js";
import { short } from "../shared/ids.js";
import { ClaimRefused, checkApplyClaims } from "./claims.js";
import { refused } from "./execute.js";
import { blockedOutcome, gitError } from "./machine.js";
import type { ApplyPlan, ApplyStep } from "./plan.js";
import type { Run } from "./record.js";
import { type ApplyOutcome, outcome } from "./types.js";

/** `--dry-run`: prints the step the plan decided, trying git's part in a scratch worktree. */

export const DRY = "dry run: ";

function removeScratch(top: string, dir: string): void {
  if (gitStatus(top, ["worktree", "remove", "--force", "--force", dir]).status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    gitStatus(top, ["worktree", "prune"]);
  }
}

function wouldApply(run: Run, message: string, fields: Partial<ApplyOutcome> = {}): ApplyOutcome {
  return outcome(run.req, run.art.capture.id, {
    outcome: "would-apply",
    warnings: run.warnings,
    message: `${DRY}${message}`,
    ...fields,
  });
}

/** git's part of a run step, in a temporary detached worktree at HEAD; the target is never touched. */
function inScratch(run: Run, dir: string, step: Extract<ApplyStep, { kind: "run" }>): ApplyOutcome {
  const { art } = run;
  const commits = step.am ? art.commits.length : 0;
  if (step.am && art.mboxFile !== null) {
    const r = runAm(dir, art.mboxFile, NO_HOOKS);
    if (!r.ok) {
      const failing = currentAmCommit(dir);
      const paths = failedPaths(`${r.stderr}\n${r.stdout}`);
      return outcome(run.req, art.capture.id, {
        outcome: "failed",
        failingCommit: failing,
        paths,
        warnings: run.warnings,
        message: `${DRY}git am would fail at child commit ${short(failing)}${paths.length ? ` (conflicting paths: ${paths.join(", ")})` : ""}: ${gitError(r)}.`,
      });
    }
  }
  const patch = step.patch ? art.patchFile : null;
  if (patch !== null && !applyPatch(dir, patch, "3way", NO_HOOKS).ok) {
    const paths = unmergedPaths(dir);
    return outcome(run.req, art.capture.id, {
      outcome: "blocked",
      paths,
      warnings: run.warnings,
      message: `${DRY}the uncommitted changes would ${paths.length ? `conflict in ${paths.join(", ")}` : "not apply"}.`,
    });
  }
  const steps = [commits ? `${commits} commit(s)` : "", patch !== null ? "the uncommitted changes" : ""];
  const what = steps.filter(Boolean).join(" and ") || "nothing";
  return wouldApply(
    run,
    `${what} would apply cleanly${step.am || !art.commits.length ? "" : " (the commits are already in the target)"}; nothing was changed.`,
    { commitsApplied: commits, worktreePatchApplied: patch !== null },
  );
}

function simulate(run: Run, step: Extract<ApplyStep, { kind: "run" }>): ApplyOutcome {
  mkdirSync(run.ctx.scratchDir, { recursive: true });
  const id = process.getBuiltinModule("node:crypto").randomBytes(6).toString("hex");
  const dir = join(run.ctx.scratchDir, `dry-${id}`);
  git(run.top, [...NO_HOOKS, "worktree", "add", "--detach", "-q", dir, step.head]);
  try {
    return inScratch(run, dir, step);
  } finally {
    removeScratch(run.top, dir);
  }
}

function printStep(run: Run, step: ApplyStep): ApplyOutcome | null {
  switch (step.kind) {
    case "refuse":
      return refused(run, `${DRY}${step.reason}`, step.paths);
    case "start-over":
      return null;
    case "nothing":
      return wouldApply(run, "nothing to apply (no commits, no uncommitted changes).");
    case "run":
      return simulate(run, step);
    case "finish":
      return wouldApply(
        run,
        "the uncommitted changes are already in the target; apply would unstage them and record completion.",
      );
    case "blocked":
      return blockedOutcome(run, step.paths, `${DRY}${step.reason}`);
    case "acknowledge":
      return wouldApply(run, "the apply would be recorded as completed by hand; nothing was changed.");
  }
}

/** The dry run of a plan: the same claim decision as the real apply, read without claiming. */
export function printPlan(run: Run, plan: ApplyPlan): ApplyOutcome | null {
  run.warnings.push(...plan.warnings);
  const { step } = plan;
  const records =
    step.kind === "blocked" ? step.record : step.kind !== "refuse" && step.kind !== "start-over";
  if (records) {
    try {
      checkApplyClaims(run.ctx.db, run.ctx, run.claimPending ?? [], Date.now());
    } catch (err) {
      if (err instanceof ClaimRefused) return refused(run, `${DRY}${err.message}`, []);
      throw err;
    }
  }
  return printStep(run, step);
}
