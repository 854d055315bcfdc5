import type { SubRecord } from "../shared/records.js";

export interface ApplyRequest {
  sub: SubRecord;
  /** Physical top of the target worktree. */
  target: string;
  dryRun: boolean;
  expectedHead: string | null;
  only: string[] | null;
  ackUncaptured: boolean;
  ackPartial: boolean;
  /** `--allow-config`: apply changes to Tandem's wiring too. */
  allowConfig: boolean;
  /** `--allow-in-progress`: apply a capture taken in the middle of a rebase, merge… (off when absent). */
  allowInProgress?: boolean;
  /** `--allow-conflict-markers`: apply a patch that adds conflict markers (off when absent). */
  allowConflictMarkers?: boolean;
}

export type ApplyOutcomeKind =
  | "applied"
  | "already-applied"
  | "nothing-to-apply"
  | "would-apply"
  | "refused"
  | "blocked"
  | "failed";

/** The result of `sub apply` (and of `sub run --apply`), for humans and `--json`. */
export interface ApplyOutcome {
  ok: boolean;
  outcome: ApplyOutcomeKind;
  id: string;
  target: string;
  captureId: string | null;
  dryRun: boolean;
  commitsApplied: number;
  worktreePatchApplied: boolean;
  postHead: string | null;
  failingCommit: string | null;
  /** Conflicted, colliding or refused paths, depending on the outcome. */
  paths: string[];
  warnings: string[];
  message: string;
}

export function outcome(
  req: ApplyRequest,
  captureId: string | null,
  fields: Partial<ApplyOutcome> & Pick<ApplyOutcome, "outcome" | "message">,
): ApplyOutcome {
  const ok = ["applied", "already-applied", "nothing-to-apply", "would-apply"].includes(fields.outcome);
  return {
    ok,
    id: req.sub.id,
    target: req.target,
    captureId,
    dryRun: req.dryRun,
    commitsApplied: 0,
    worktreePatchApplied: false,
    postHead: null,
    failingCommit: null,
    paths: [],
    warnings: [],
    ...fields,
  };
}
