import type { Db } from "../db.js";
import { stmt } from "../db.js";
import type { EventData, EventKind } from "../events/schemas.js";
import type { StoredEvent } from "../events/stored.js";

type Projector = (db: Db, ev: StoredEvent) => void;

function d<K extends EventKind>(ev: StoredEvent, _kind: K): EventData<K> {
  return ev.data as EventData<K>;
}

const json = (v: unknown): string => JSON.stringify(v);

/**
 * Writes one apply row. `post_head` and `applied_child_head` only change on
 * completion: they keep describing the last completed apply while a new one runs.
 * Acknowledgements belong to a capture: when the row moves
 * on to another capture they reset, so an old acknowledgement never covers new work.
 */
function upsertApply(db: Db, ev: StoredEvent, key: { id: string; target: string; captureId: string }): void {
  stmt(
    db,
    `INSERT INTO subagent_applies (sub_id, target, capture_id, stage, updated_seq) VALUES (?, ?, ?, 'none', ?)
     ON CONFLICT (sub_id, target) DO UPDATE SET
       ack_uncaptured = CASE WHEN capture_id = excluded.capture_id THEN ack_uncaptured ELSE 0 END,
       ack_partial = CASE WHEN capture_id = excluded.capture_id THEN ack_partial ELSE 0 END,
       capture_id = excluded.capture_id, updated_seq = excluded.updated_seq`,
  ).run(key.id, key.target, key.captureId, ev.seq);
}

function updateApply(db: Db, key: { id: string; target: string }, set: Record<string, unknown>): void {
  const cols = Object.keys(set);
  stmt(
    db,
    `UPDATE subagent_applies SET ${cols.map((c) => `${c} = ?`).join(", ")} WHERE sub_id = ? AND target = ?`,
  ).run(...cols.map((c) => set[c]), key.id, key.target);
}

/** How the sub-agent kinds change the sub-agent views; merged into the store's projectors. */
export const SUBAGENT_PROJECTORS: Partial<Record<EventKind, Projector>> = {
  "subagent.created": (db, ev) => {
    const s = d(ev, "subagent.created");
    stmt(
      db,
      `INSERT INTO subagents (id, name, client, parent_session, child_session, origin, worktree, branch, base,
         base_ref, args, log, runner_pid, runner_start, created_seq, created_ts)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      s.id,
      s.name,
      s.client,
      s.parentSession,
      s.childSession,
      s.origin,
      s.worktree,
      s.branch,
      s.base,
      s.baseRef,
      json(s.args),
      s.log,
      s.runnerPid,
      s.runnerStart,
      ev.seq,
      ev.ts,
    );
  },
  "subagent.spawned": (db, ev) => {
    const s = d(ev, "subagent.spawned");
    stmt(db, "UPDATE subagents SET child_pid = ?, child_start = ? WHERE id = ?").run(s.pid, s.pidStart, s.id);
  },
  "subagent.exited": (db, ev) => {
    const s = d(ev, "subagent.exited");
    stmt(
      db,
      `UPDATE subagents SET exited_seq = ?, exit_code = ?, exit_signal = ?, exit_reason = ?, exit_message = ?
       WHERE id = ?`,
    ).run(ev.seq, s.exitCode, s.signal, s.reason, s.message, s.id);
  },
  "capture.recorded": (db, ev) => {
    const c = d(ev, "capture.recorded");
    stmt(db, "UPDATE subagents SET captures = captures + 1, latest_capture = ? WHERE id = ?").run(
      c.captureId,
      c.id,
    );
    stmt(
      db,
      `INSERT INTO subagent_captures (id, sub_id, number, recorded_seq, recorded_ts, ok, base, head, commit_count,
         mbox_blob, mbox_bytes, patch_blob, patch_bytes, had_uncommitted, dirty_paths, uncaptured, series)
       VALUES (?, ?, (SELECT captures FROM subagents WHERE id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      c.captureId,
      c.id,
      c.id,
      ev.seq,
      ev.ts,
      c.ok ? 1 : 0,
      c.base,
      c.head,
      c.commitCount,
      c.mboxBlob,
      c.mboxBytes,
      c.patchBlob,
      c.patchBytes,
      c.hadUncommittedChanges ? 1 : 0,
      json(c.dirtyPaths),
      json(c.uncaptured),
      json(c.series),
    );
  },
  "apply.staged": (db, ev) => {
    const a = d(ev, "apply.staged");
    upsertApply(db, ev, a);
    updateApply(db, a, {
      stage: a.stage,
      fence: a.fence,
      series_base: a.seriesBase,
      series_blob: a.seriesBlob,
      am_head: a.amHead,
      staged_before: a.stagedBefore ? json(a.stagedBefore) : null,
      pre_apply: a.preApply ? json(a.preApply) : null,
      paths: null,
      message: null,
      failing_commit: null,
      completed_seq: null,
    });
  },
  "apply.failed": (db, ev) => {
    const a = d(ev, "apply.failed");
    const set: Record<string, unknown> = {
      message: a.message,
      failing_commit: a.failingCommit,
      paths: json(a.paths),
      updated_seq: ev.seq,
    };
    if (a.next === "none") set.stage = "failed";
    if (a.next === "commits-applied") set.stage = "commits-applied";
    updateApply(db, a, set);
  },
  "apply.blocked": (db, ev) => {
    const a = d(ev, "apply.blocked");
    updateApply(db, a, { stage: "blocked", paths: json(a.paths), message: a.message, updated_seq: ev.seq });
  },
  "apply.acknowledged": (db, ev) => {
    const a = d(ev, "apply.acknowledged");
    const col = a.what === "uncaptured" ? "ack_uncaptured" : "ack_partial";
    stmt(
      db,
      `UPDATE subagent_applies SET ${col} = 1, updated_seq = ? WHERE sub_id = ? AND target = ? AND capture_id = ?`,
    ).run(ev.seq, a.id, a.target, a.captureId);
  },
  "apply.completed": (db, ev) => {
    const a = d(ev, "apply.completed");
    upsertApply(db, ev, a);
    updateApply(db, a, {
      stage: "completed",
      fence: a.fence,
      series_base: a.seriesBase,
      post_head: a.postHead,
      applied_child_head: a.appliedChildHead,
      commits_applied: a.commitsApplied,
      patch_applied: a.patchApplied ? 1 : 0,
      pre_apply: json(a.preApply),
      paths: null,
      message: null,
      failing_commit: null,
      completed_seq: ev.seq,
    });
    if (a.partial) updateApply(db, a, { ack_partial: 1 });
  },
  "subagent.removed": (db, ev) => {
    stmt(db, "UPDATE subagents SET removed_seq = ?, removal = 'removed' WHERE id = ?").run(
      ev.seq,
      d(ev, "subagent.removed").id,
    );
  },
  "subagent.discarded": (db, ev) => {
    stmt(db, "UPDATE subagents SET removed_seq = ?, removal = 'discarded' WHERE id = ?").run(
      ev.seq,
      d(ev, "subagent.discarded").id,
    );
  },
};
