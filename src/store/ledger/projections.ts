import type { Db, WriteTx } from "../db.js";
import { stmt } from "../db.js";
import type { EventData, EventKind } from "../events/schemas.js";
import type { StoredEvent } from "../events/stored.js";
import { identityColumns, insertSession } from "../sessions/insert.js";
import { HISTORY_PROJECTORS } from "./history-projectors.js";
import { SUBAGENT_PROJECTORS } from "./subagent-projectors.js";

export type { StoredEvent } from "../events/stored.js";

type Projector = (db: Db, ev: StoredEvent) => void;

function d<K extends EventKind>(ev: StoredEvent, _kind: K): EventData<K> {
  return ev.data as EventData<K>;
}

/** How each event kind changes the live views. Kinds not listed only refresh last_seen. */
const PROJECTORS: Partial<Record<EventKind, Projector>> = {
  "session.started": (db, ev) => {
    const s = d(ev, "session.started");
    insertSession(
      db,
      {
        id: ev.session as string,
        ...identityColumns(s),
        ui_pid: s.uiPid ?? null,
        ui_pid_start: s.uiPidStart ?? null,
        task: null,
        activity: "idle",
        started_seq: ev.seq,
        last_seen: ev.ts,
        last_seq: ev.seq,
        ended_seq: null,
      },
      "new",
    );
  },
  "session.attached": (db, ev) => {
    const a = d(ev, "session.attached");
    stmt(db, "UPDATE sessions SET ui_pid = ?, ui_pid_start = ? WHERE id = ?").run(
      a.uiPid,
      a.uiPidStart,
      ev.session,
    );
  },
  "session.ended": (db, ev) => {
    stmt(db, "UPDATE sessions SET ended_seq = ?, activity = 'idle' WHERE id = ?").run(ev.seq, ev.session);
  },
  "session.resumed": (db, ev) => {
    stmt(db, "UPDATE sessions SET ended_seq = NULL WHERE id = ?").run(ev.session);
  },
  "activity.set": (db, ev) => {
    stmt(db, "UPDATE sessions SET activity = ? WHERE id = ?").run(d(ev, "activity.set").activity, ev.session);
  },
  "prompt.submitted": (db, ev) => {
    stmt(db, "UPDATE sessions SET activity = 'working' WHERE id = ?").run(ev.session);
  },
  "turn.stopped": (db, ev) => {
    // An enforced block keeps the same turn going: the agent is still at work (issue 14).
    const { verdict, enforcement } = d(ev, "turn.stopped");
    const still = verdict === "block" && enforcement === "enforced";
    stmt(db, "UPDATE sessions SET activity = ? WHERE id = ?").run(still ? "working" : "idle", ev.session);
  },
  "task.set": (db, ev) => {
    // An empty task acknowledges a turn with nothing new: the declared task stays.
    const text = d(ev, "task.set").text;
    if (text !== "") stmt(db, "UPDATE sessions SET task = ? WHERE id = ?").run(text, ev.session);
  },
  "claim.acquired": (db, ev) => {
    const c = d(ev, "claim.acquired");
    stmt(
      db,
      `INSERT INTO claims (worktree, path, session_id, disposition, root, acquired_seq) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (worktree, path) DO UPDATE SET session_id = excluded.session_id,
         disposition = excluded.disposition, root = excluded.root, acquired_seq = excluded.acquired_seq`,
    ).run(c.worktree, c.path, ev.session, c.disposition, c.root, ev.seq);
    stmt(
      db,
      `INSERT INTO claim_history (session_id, worktree, path, first_seq, last_seq) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET last_seq = excluded.last_seq, released_seq = NULL, release_reason = NULL`,
    ).run(ev.session, c.worktree, c.path, ev.seq, ev.seq);
  },
  "claim.released": (db, ev) => {
    const c = d(ev, "claim.released");
    const holder = c.holder ?? ev.session;
    stmt(db, "DELETE FROM claims WHERE worktree = ? AND path = ? AND session_id = ?").run(
      c.worktree,
      c.path,
      holder,
    );
    stmt(
      db,
      `UPDATE claim_history SET released_seq = ?, release_reason = ?
       WHERE session_id = ? AND worktree = ? AND path = ?`,
    ).run(ev.seq, c.reason, holder, c.worktree, c.path);
  },
  "files.touched": (db, ev) => {
    const t = d(ev, "files.touched");
    const insert = stmt(
      db,
      `INSERT INTO touched (session_id, worktree, path, first_seq, unattributed) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT DO NOTHING`,
    );
    for (const p of t.paths) insert.run(ev.session, t.worktree, p, ev.seq, 0);
    for (const p of t.unattributed ?? []) insert.run(ev.session, t.worktree, p, ev.seq, 1);
  },
  "work.preserved": (db, ev) => {
    const w = d(ev, "work.preserved");
    stmt(
      db,
      `INSERT OR REPLACE INTO preserved (worktree, path, owner, version, blob, bytes, stamp, reason, seq, ts)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(w.worktree, w.path, w.owner, w.version, w.blob, w.bytes, w.stamp, w.reason, ev.seq, ev.ts);
  },
  "work.clobbered": (db, ev) => {
    const w = d(ev, "work.clobbered");
    stmt(
      db,
      `INSERT INTO clobbers (seq, ts, worktree, path, owner, actor, version, change, via)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(ev.seq, ev.ts, w.worktree, w.path, w.owner, w.actor, w.version, w.change, w.via);
  },
  "work.noticed": (db, ev) => {
    stmt(db, "UPDATE clobbers SET noticed = 1 WHERE owner = ? AND seq <= ?").run(
      ev.session,
      d(ev, "work.noticed").upToSeq,
    );
  },
  "work.recovered": (db, ev) => {
    const w = d(ev, "work.recovered");
    stmt(
      db,
      "UPDATE clobbers SET recovered = 1, noticed = 1 WHERE worktree = ? AND path = ? AND owner = ?",
    ).run(w.worktree, w.path, w.owner);
  },
  "work.settled": (db, ev) => {
    const w = d(ev, "work.settled");
    const claim = stmt(
      db,
      `UPDATE claim_history SET released_seq = ?, release_reason = ? WHERE session_id = ? AND worktree = ?
         AND path = ? AND release_reason = 'session_end'`,
    );
    const touch = stmt(db, "DELETE FROM touched WHERE session_id = ? AND worktree = ? AND path = ?");
    for (const p of w.paths) {
      claim.run(ev.seq, `left_${w.reason}`, w.owner, w.worktree, p);
      touch.run(w.owner, w.worktree, p);
    }
    // A claim the gone owner still held on a clean file ends with the settle.
    const held = stmt(
      db,
      `UPDATE claim_history SET released_seq = ?, release_reason = ? WHERE session_id = ? AND worktree = ?
         AND path = ? AND released_seq IS NULL`,
    );
    const live = stmt(db, "DELETE FROM claims WHERE session_id = ? AND worktree = ? AND path = ?");
    for (const p of w.held ?? []) {
      held.run(ev.seq, `left_${w.reason}`, w.owner, w.worktree, p);
      live.run(w.owner, w.worktree, p);
    }
  },
  ...SUBAGENT_PROJECTORS,
  ...HISTORY_PROJECTORS,
};

/** Applies one stored event to the projections; called in the event's own transaction. */
export function project(db: WriteTx, ev: StoredEvent): void {
  if (ev.session && ev.kind !== "session.started") {
    stmt(db, "UPDATE sessions SET last_seen = max(last_seen, ?), last_seq = ? WHERE id = ?").run(
      ev.ts,
      ev.seq,
      ev.session,
    );
  }
  PROJECTORS[ev.kind as EventKind]?.(db, ev);
}
