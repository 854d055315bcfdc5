import type { Db } from "../db.js";
import { stmt } from "../db.js";
import type { EventData, EventKind } from "../events/schemas.js";
import type { StoredEvent } from "../events/stored.js";
import { identityColumns, insertSession } from "../sessions/insert.js";

type Projector = (db: Db, ev: StoredEvent) => void;

/**
 * Puts back exactly the rows a compacted session's events had left (all but the UI process,
 * which only matters while a session is open). Live, this rewrites the same rows; in a rebuild, where those events are gone, it restores them, and resets
 * every file the session ever claimed to the holder it had when it was compacted, so claims
 * its removed events took over or released replay as they were (docs/decisions/0012).
 */
function restoreSession(db: Db, ev: StoredEvent): void {
  const c = ev.data as EventData<"session.compacted">;
  const s = c.session;
  insertSession(
    db,
    {
      id: s.id,
      ...identityColumns(s),
      // The UI process only matters while a session is open: a compacted one has none.
      ui_pid: null,
      ui_pid_start: null,
      task: s.task,
      activity: s.activity,
      started_seq: s.startedSeq,
      last_seen: s.lastSeen,
      last_seq: s.lastSeq,
      ended_seq: s.endedSeq,
    },
    "replace",
  );
  const history = stmt(
    db,
    `INSERT OR REPLACE INTO claim_history (session_id, worktree, path, first_seq, last_seq, released_seq, release_reason)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  stmt(db, "DELETE FROM claim_history WHERE session_id = ?").run(s.id);
  for (const row of c.claimHistory) history.run(s.id, ...row);
  for (const row of c.holderHistory) history.run(...row);
  stmt(db, "DELETE FROM touched WHERE session_id = ?").run(s.id);
  const touched = stmt(
    db,
    "INSERT INTO touched (session_id, worktree, path, first_seq, unattributed) VALUES (?, ?, ?, ?, ?)",
  );
  for (const row of c.touched) touched.run(s.id, ...row);
  const clear = stmt(db, "DELETE FROM claims WHERE worktree = ? AND path = ?");
  for (const [worktree, path] of [...c.claimHistory, ...c.holderHistory.map((h) => h.slice(1))])
    clear.run(worktree, path);
  const hold = stmt(
    db,
    "INSERT INTO claims (worktree, path, session_id, disposition, root, acquired_seq) VALUES (?, ?, ?, ?, ?, ?)",
  );
  for (const row of c.heldNow) hold.run(...row);
}

/** How the retention kinds change the views; merged into the store's projectors. */
export const HISTORY_PROJECTORS: Partial<Record<EventKind, Projector>> = {
  "session.compacted": restoreSession,
  "work.expired": (db, ev) => {
    const del = stmt(
      db,
      "DELETE FROM preserved WHERE worktree = ? AND path = ? AND owner = ? AND version = ?",
    );
    for (const v of (ev.data as EventData<"work.expired">).versions) del.run(...v);
  },
  "subagents.expired": (db, ev) => {
    const ins = stmt(db, "INSERT OR REPLACE INTO expired_subagents (sub_id, seq) VALUES (?, ?)");
    for (const id of (ev.data as EventData<"subagents.expired">).ids) ins.run(id, ev.seq);
  },
};
