import { type Db, stmt } from "../db.js";
import { raw } from "../handle.js";
import type { SubagentApplyRow, SubagentCaptureRow, SubagentRow } from "../schema/subagents.js";
import type { ApplyRecord, ApplyStage, CaptureRecord, PreApply, SeriesRecord, SubRecord } from "./types.js";

export type { ApplyRecord, ApplyStage, CaptureRecord, PreApply, SeriesRecord, SubRecord };

/** A `subagents` row as stored, with the two enum columns narrowed to what the store writes. */
type SubRow = Omit<SubagentRow, "client" | "removal"> & {
  client: SubRecord["client"];
  removal: SubRecord["removal"];
};

/** A `subagent_captures` row with the two fields read from its event. */
type CaptureRow = SubagentCaptureRow & { in_progress: string | null; conflict_markers: string | null };

/** A `subagent_applies` row as stored. */
type ApplyRow = Omit<SubagentApplyRow, "stage"> & { stage: ApplyStage };

const parse = <T>(v: unknown, fallback: T): T => (typeof v === "string" ? (JSON.parse(v) as T) : fallback);

function toSub(r: SubRow): SubRecord {
  return {
    id: r.id,
    name: r.name,
    client: r.client,
    parentSession: r.parent_session,
    childSession: r.child_session,
    origin: r.origin,
    worktree: r.worktree,
    branch: r.branch,
    base: r.base,
    baseRef: r.base_ref,
    args: parse(r.args, []),
    log: r.log,
    runnerPid: r.runner_pid,
    runnerStart: r.runner_start,
    childPid: r.child_pid,
    childStart: r.child_start,
    createdTs: r.created_ts,
    exited: r.exited_seq !== null,
    exitedSeq: r.exited_seq,
    exitCode: r.exit_code,
    exitSignal: r.exit_signal,
    exitReason: r.exit_reason,
    exitMessage: r.exit_message,
    latestCapture: r.latest_capture,
    captures: r.captures,
    removal: r.removal,
  };
}

function toCapture(r: CaptureRow): CaptureRecord {
  return {
    id: r.id,
    subId: r.sub_id,
    number: r.number,
    recordedSeq: r.recorded_seq,
    recordedTs: r.recorded_ts,
    ok: r.ok === 1,
    base: r.base,
    head: r.head,
    commitCount: r.commit_count,
    mboxBlob: r.mbox_blob,
    mboxBytes: r.mbox_bytes,
    patchBlob: r.patch_blob,
    patchBytes: r.patch_bytes,
    // A corrupt flag reads as dirty: unknown is never clean.
    hadUncommittedChanges: r.had_uncommitted !== 0,
    dirtyPaths: parse(r.dirty_paths, []),
    uncaptured: parse(r.uncaptured, []),
    series: parse(r.series, []),
    inProgress: parse(r.in_progress, null),
    conflictMarkers: parse(r.conflict_markers, []),
  };
}

function toApply(r: ApplyRow): ApplyRecord {
  return {
    subId: r.sub_id,
    target: r.target,
    captureId: r.capture_id,
    stage: r.stage,
    fence: r.fence,
    seriesBase: r.series_base,
    seriesBlob: r.series_blob,
    amHead: r.am_head,
    stagedBefore: parse(r.staged_before, []),
    preApply: parse(r.pre_apply, []),
    postHead: r.post_head,
    appliedChildHead: r.applied_child_head,
    commitsApplied: r.commits_applied ?? 0,
    patchApplied: r.patch_applied === 1,
    paths: parse(r.paths, []),
    message: r.message,
    failingCommit: r.failing_commit,
    ackUncaptured: r.ack_uncaptured === 1,
    ackPartial: r.ack_partial === 1,
    updatedSeq: r.updated_seq,
  };
}

export function allSubs(db: Db): SubRecord[] {
  return (raw(db).prepare("SELECT * FROM subagents ORDER BY created_seq").all() as SubRow[]).map(toSub);
}

/** Sub-agents whose worktree is still there, through a partial index: removed ones are never read. */
export function presentSubs(db: Db): SubRecord[] {
  return (
    stmt(db, "SELECT * FROM subagents WHERE removal IS NULL ORDER BY created_seq").all() as SubRow[]
  ).map(toSub);
}

export function subById(db: Db, id: string): SubRecord | null {
  const row = raw(db).prepare("SELECT * FROM subagents WHERE id = ?").get(id) as SubRow | undefined;
  return row ? toSub(row) : null;
}

/** Sub-agents given `--name name`, newest first. */
export function subsNamed(db: Db, name: string): SubRecord[] {
  return (
    raw(db).prepare("SELECT * FROM subagents WHERE name = ? ORDER BY created_seq DESC").all(name) as SubRow[]
  ).map(toSub);
}

/** A name that a present sub-agent already uses, so `--name` stays unambiguous. */
export function nameTaken(db: Db, name: string): boolean {
  return (
    raw(db)
      .prepare("SELECT 1 FROM subagents WHERE (name = ? AND removal IS NULL) OR id = ?")
      .get(name, name) !== undefined
  );
}

/** `tandem gc` deleted this sub-agent's artifacts (docs/decisions/0012). */
export function artifactsExpired(db: Db, subId: string): boolean {
  return raw(db).prepare("SELECT 1 FROM expired_subagents WHERE sub_id = ?").get(subId) !== undefined;
}

/**
 * Capture rows with what the capture event holds beyond the projected columns: the operation in
 * progress and the conflict-marker paths (null in captures recorded before they were looked for).
 */
const CAPTURES = `SELECT c.*, json_extract(e.data, '$.inProgress') AS in_progress,
    json_extract(e.data, '$.conflictMarkers') AS conflict_markers
  FROM subagent_captures c LEFT JOIN events e ON e.seq = c.recorded_seq AND e.kind = 'capture.recorded'`;

export function captureById(db: Db, id: string): CaptureRecord | null {
  const row = raw(db).prepare(`${CAPTURES} WHERE c.id = ?`).get(id) as CaptureRow | undefined;
  return row ? toCapture(row) : null;
}

/** The patch paths the capture event kept; null for a capture recorded before they were kept. */
export function recordedPatchPaths(db: Db, capture: CaptureRecord): string[] | null {
  const row = raw(db)
    .prepare("SELECT data FROM events WHERE seq = ? AND kind = 'capture.recorded'")
    .get(capture.recordedSeq) as { data: string } | undefined;
  if (!row) return null;
  const kept = (JSON.parse(row.data) as { patchPaths?: unknown }).patchPaths;
  return Array.isArray(kept) && kept.every((p) => typeof p === "string") ? kept : null;
}

export function capturesOf(db: Db, subId: string): CaptureRecord[] {
  return (raw(db).prepare(`${CAPTURES} WHERE c.sub_id = ? ORDER BY c.number`).all(subId) as CaptureRow[]).map(
    toCapture,
  );
}

export function latestCapture(db: Db, sub: SubRecord): CaptureRecord | null {
  return sub.latestCapture ? captureById(db, sub.latestCapture) : null;
}

export function applyOf(db: Db, subId: string, target: string): ApplyRecord | null {
  const row = raw(db)
    .prepare("SELECT * FROM subagent_applies WHERE sub_id = ? AND target = ?")
    .get(subId, target) as ApplyRow | undefined;
  return row ? toApply(row) : null;
}

export function appliesOf(db: Db, subId: string): ApplyRecord[] {
  return (
    raw(db)
      .prepare("SELECT * FROM subagent_applies WHERE sub_id = ? ORDER BY target")
      .all(subId) as ApplyRow[]
  ).map(toApply);
}

/** Who wrote an apply row's latest event, when the event names them, and when. */
export function applyWriter(
  db: Db,
  row: ApplyRecord,
): { pid: number; start: string | null; ts: number } | null {
  const ev = stmt(db, "SELECT ts, data FROM events WHERE seq = ?").get(row.updatedSeq) as
    | { ts: number; data: string }
    | undefined;
  if (!ev) return null;
  const by = (JSON.parse(ev.data) as { by?: { pid: number; start: string | null } }).by;
  return by ? { pid: by.pid, start: by.start, ts: ev.ts } : null;
}
