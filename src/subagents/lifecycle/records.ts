import { UsageError } from "../../errors.js";
import { type Db, stmt } from "../../store/db.js";
import type { CaptureResult } from "../capture/capture.js";
import type { SubClient } from "./launch.js";

export type ApplyStage =
  | "none"
  | "am-started"
  | "commits-applied"
  | "worktree-started"
  | "blocked"
  | "failed"
  | "completed";

export interface SubRecord {
  id: string;
  name: string | null;
  client: SubClient;
  parentSession: string | null;
  childSession: string | null;
  origin: string;
  worktree: string;
  branch: string;
  base: string;
  baseRef: string;
  args: string[];
  log: string;
  runnerPid: number | null;
  runnerStart: string | null;
  childPid: number | null;
  childStart: string | null;
  createdTs: number;
  exited: boolean;
  exitedSeq: number | null;
  exitCode: number | null;
  exitSignal: string | null;
  exitReason: string | null;
  exitMessage: string | null;
  latestCapture: string | null;
  captures: number;
  removal: "removed" | "discarded" | null;
}

export interface SeriesRecord {
  target: string;
  base: string;
  commitCount: number;
  mboxBlob: string | null;
  mboxBytes: number;
  error: string | null;
}

/**
 * A stored capture: what captureWorktree found, plus its row's identity and the per-target series.
 * Its patch paths stay in the event (recordedPatchPaths): only an apply reads them.
 */
export interface CaptureRecord extends Omit<CaptureResult, "patchPaths"> {
  id: string;
  subId: string;
  number: number;
  recordedSeq: number;
  recordedTs: number;
  series: SeriesRecord[];
}

export interface PreApply {
  path: string;
  blob: string | null;
}

export interface ApplyRecord {
  subId: string;
  target: string;
  captureId: string;
  stage: ApplyStage;
  fence: string | null;
  seriesBase: string | null;
  seriesBlob: string | null;
  amHead: string | null;
  stagedBefore: string[];
  preApply: PreApply[];
  postHead: string | null;
  appliedChildHead: string | null;
  commitsApplied: number;
  patchApplied: boolean;
  paths: string[];
  message: string | null;
  failingCommit: string | null;
  ackUncaptured: boolean;
  ackPartial: boolean;
  updatedSeq: number;
}

type Row = Record<string, unknown>;

const parse = <T>(v: unknown, fallback: T): T => (typeof v === "string" ? (JSON.parse(v) as T) : fallback);

function toSub(r: Row): SubRecord {
  return {
    id: r.id as string,
    name: r.name as string | null,
    client: r.client as SubRecord["client"],
    parentSession: r.parent_session as string | null,
    childSession: r.child_session as string | null,
    origin: r.origin as string,
    worktree: r.worktree as string,
    branch: r.branch as string,
    base: r.base as string,
    baseRef: r.base_ref as string,
    args: parse(r.args, []),
    log: r.log as string,
    runnerPid: r.runner_pid as number | null,
    runnerStart: r.runner_start as string | null,
    childPid: r.child_pid as number | null,
    childStart: r.child_start as string | null,
    createdTs: r.created_ts as number,
    exited: r.exited_seq !== null,
    exitedSeq: r.exited_seq as number | null,
    exitCode: r.exit_code as number | null,
    exitSignal: r.exit_signal as string | null,
    exitReason: r.exit_reason as string | null,
    exitMessage: r.exit_message as string | null,
    latestCapture: r.latest_capture as string | null,
    captures: r.captures as number,
    removal: r.removal as SubRecord["removal"],
  };
}

function toCapture(r: Row): CaptureRecord {
  return {
    id: r.id as string,
    subId: r.sub_id as string,
    number: r.number as number,
    recordedSeq: r.recorded_seq as number,
    recordedTs: r.recorded_ts as number,
    ok: r.ok === 1,
    base: r.base as string,
    head: r.head as string | null,
    commitCount: r.commit_count as number,
    mboxBlob: r.mbox_blob as string | null,
    mboxBytes: r.mbox_bytes as number,
    patchBlob: r.patch_blob as string | null,
    patchBytes: r.patch_bytes as number,
    // A corrupt flag reads as dirty: unknown is never clean.
    hadUncommittedChanges: r.had_uncommitted !== 0,
    dirtyPaths: parse(r.dirty_paths, []),
    uncaptured: parse(r.uncaptured, []),
    series: parse(r.series, []),
    inProgress: parse(r.in_progress, null),
    conflictMarkers: parse(r.conflict_markers, []),
  };
}

function toApply(r: Row): ApplyRecord {
  return {
    subId: r.sub_id as string,
    target: r.target as string,
    captureId: r.capture_id as string,
    stage: r.stage as ApplyStage,
    fence: r.fence as string | null,
    seriesBase: r.series_base as string | null,
    seriesBlob: r.series_blob as string | null,
    amHead: r.am_head as string | null,
    stagedBefore: parse(r.staged_before, []),
    preApply: parse(r.pre_apply, []),
    postHead: r.post_head as string | null,
    appliedChildHead: r.applied_child_head as string | null,
    commitsApplied: (r.commits_applied as number | null) ?? 0,
    patchApplied: r.patch_applied === 1,
    paths: parse(r.paths, []),
    message: r.message as string | null,
    failingCommit: r.failing_commit as string | null,
    ackUncaptured: r.ack_uncaptured === 1,
    ackPartial: r.ack_partial === 1,
    updatedSeq: r.updated_seq as number,
  };
}

export function allSubs(db: Db): SubRecord[] {
  return (db.prepare("SELECT * FROM subagents ORDER BY created_seq").all() as Row[]).map(toSub);
}

/** Sub-agents whose worktree is still there, through a partial index: removed ones are never read. */
export function presentSubs(db: Db): SubRecord[] {
  return (stmt(db, "SELECT * FROM subagents WHERE removal IS NULL ORDER BY created_seq").all() as Row[]).map(
    toSub,
  );
}

export function subById(db: Db, id: string): SubRecord | null {
  const row = db.prepare("SELECT * FROM subagents WHERE id = ?").get(id) as Row | undefined;
  return row ? toSub(row) : null;
}

/** `ID` on the command line: the sub-agent id, else its `--name` (the newest one still present wins). */
export function findSub(db: Db, ref: string): SubRecord {
  const byId = subById(db, ref);
  if (byId) return byId;
  const named = (
    db.prepare("SELECT * FROM subagents WHERE name = ? ORDER BY created_seq DESC").all(ref) as Row[]
  ).map(toSub);
  const present = named.filter((s) => s.removal === null);
  const pick = present[0] ?? named[0];
  if (!pick)
    throw new UsageError(`no sub-agent has the id or name ${JSON.stringify(ref)}; see \`tandem sub list\`.`);
  return pick;
}

/** A name that a present sub-agent already uses, so `--name` stays unambiguous. */
export function nameTaken(db: Db, name: string): boolean {
  return (
    db.prepare("SELECT 1 FROM subagents WHERE (name = ? AND removal IS NULL) OR id = ?").get(name, name) !==
    undefined
  );
}

/**
 * Capture rows with what the capture event holds beyond the projected columns: the operation in
 * progress and the conflict-marker paths (null in captures recorded before they were looked for).
 */
const CAPTURES = `SELECT c.*, json_extract(e.data, '$.inProgress') AS in_progress,
    json_extract(e.data, '$.conflictMarkers') AS conflict_markers
  FROM subagent_captures c LEFT JOIN events e ON e.seq = c.recorded_seq AND e.kind = 'capture.recorded'`;

export function captureById(db: Db, id: string): CaptureRecord | null {
  const row = db.prepare(`${CAPTURES} WHERE c.id = ?`).get(id) as Row | undefined;
  return row ? toCapture(row) : null;
}

/** The patch paths the capture event kept; null for a capture recorded before they were kept. */
export function recordedPatchPaths(db: Db, capture: CaptureRecord): string[] | null {
  const row = db
    .prepare("SELECT data FROM events WHERE seq = ? AND kind = 'capture.recorded'")
    .get(capture.recordedSeq) as { data: string } | undefined;
  if (!row) return null;
  const kept = (JSON.parse(row.data) as { patchPaths?: unknown }).patchPaths;
  return Array.isArray(kept) && kept.every((p) => typeof p === "string") ? kept : null;
}

export function capturesOf(db: Db, subId: string): CaptureRecord[] {
  return (db.prepare(`${CAPTURES} WHERE c.sub_id = ? ORDER BY c.number`).all(subId) as Row[]).map(toCapture);
}

export function latestCapture(db: Db, sub: SubRecord): CaptureRecord | null {
  return sub.latestCapture ? captureById(db, sub.latestCapture) : null;
}

export function applyOf(db: Db, subId: string, target: string): ApplyRecord | null {
  const row = db
    .prepare("SELECT * FROM subagent_applies WHERE sub_id = ? AND target = ?")
    .get(subId, target) as Row | undefined;
  return row ? toApply(row) : null;
}

export function appliesOf(db: Db, subId: string): ApplyRecord[] {
  return (
    db.prepare("SELECT * FROM subagent_applies WHERE sub_id = ? ORDER BY target").all(subId) as Row[]
  ).map(toApply);
}
