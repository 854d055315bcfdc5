/** The `shell_snapshots` table: what a shell command (or a whole turn) started from, until it is measured. */
import type { Db } from "../db.js";
import { stmt } from "../db.js";

export type SnapshotScopeName = "tree" | "named";

export interface NewSnapshot {
  session: string;
  key: string;
  startedAt: number;
  worktree: string;
  /** Path → stamp of each dirty file when the command started. */
  dirty: Record<string, string>;
  /** Repository → stash shas, when the command may create stashes. */
  stashes: Record<string, string[]> | null;
  scope: SnapshotScopeName;
}

/** Replaces whatever the slot held: a later command with the same id starts over. */
export function putShellSnapshot(db: Db, s: NewSnapshot): void {
  stmt(
    db,
    "INSERT OR REPLACE INTO shell_snapshots (session_id, tool_use_id, started_at, worktree, dirty, stashes, scope) VALUES (?, ?, ?, ?, ?, ?, ?)",
  ).run(
    s.session,
    s.key,
    s.startedAt,
    s.worktree,
    JSON.stringify(s.dirty),
    s.stashes ? JSON.stringify(s.stashes) : null,
    s.scope,
  );
}

/** A slot not measured yet; `text` is the stored dirty map verbatim, to tell it from a later one. */
export interface OpenSnapshot {
  text: string;
  dirty: Record<string, string>;
  stashes: Record<string, string[]> | null;
  scope: SnapshotScopeName;
}

export function openSnapshot(db: Db, session: string, key: string): OpenSnapshot | null {
  const row = stmt(
    db,
    "SELECT dirty, stashes, scope FROM shell_snapshots WHERE session_id = ? AND tool_use_id = ? AND ended_at IS NULL",
  ).get(session, key) as { dirty: string; stashes: string | null; scope: SnapshotScopeName } | undefined;
  if (!row) return null;
  return {
    text: row.dirty,
    dirty: JSON.parse(row.dirty) as Record<string, string>,
    stashes: row.stashes ? (JSON.parse(row.stashes) as Record<string, string[]>) : null,
    scope: row.scope,
  };
}

/** A slot as it stands now, read inside the write that measures it. */
export interface SnapshotState {
  startedAt: number;
  endedAt: number | null;
  text: string;
}

export function snapshotState(db: Db, session: string, key: string): SnapshotState | null {
  const row = stmt(db, "SELECT * FROM shell_snapshots WHERE session_id = ? AND tool_use_id = ?").get(
    session,
    key,
  ) as { started_at: number; ended_at: number | null; dirty: string } | undefined;
  return row ? { startedAt: row.started_at, endedAt: row.ended_at, text: row.dirty } : null;
}

export function endSnapshot(db: Db, session: string, key: string, now: number): void {
  stmt(db, "UPDATE shell_snapshots SET ended_at = ? WHERE session_id = ? AND tool_use_id = ?").run(
    now,
    session,
    key,
  );
}

/** Drops slots started before `before`: commands that never reported back. */
export function forgetSnapshots(db: Db, before: number): void {
  stmt(db, "DELETE FROM shell_snapshots WHERE started_at < ?").run(before);
}

/**
 * Whether a peer's tree-scoped command (not a turn slot) in `worktree` overlapped [start, end]:
 * ended inside it, or still open and started after `openSince`.
 */
export function peerTreeCommandDuring(
  db: Db,
  q: { self: string; worktree: string; start: number; end: number; openSince: number },
): boolean {
  const row = stmt(
    db,
    `SELECT count(*) AS n FROM shell_snapshots WHERE session_id != ? AND worktree = ? AND tool_use_id != 'turn:' AND scope = 'tree' AND started_at <= ?
         AND (ended_at >= ? OR (ended_at IS NULL AND started_at >= ?))`,
  ).get(q.self, q.worktree, q.end, q.start, q.openSince) as { n: number };
  return row.n > 0;
}
