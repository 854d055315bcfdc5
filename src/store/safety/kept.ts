/**
 * Queries behind "every owner version kept, watched afterwards" (docs/safety-net.md, decision
 * 0020): the newest kept version of each owned file, and what happened to it since.
 */
import { type CallEvent, KEPT_REASONS, type Kept } from "../../core/safety/owner-versions.js";
import { type Db, stmt } from "../db.js";

const KEPT_IN = `(${KEPT_REASONS.map((r) => `'${r}'`).join(", ")})`;

export interface KeptRow extends Kept {
  path: string;
  owner: string;
}

/**
 * Every file of one worktree (the one parameter) with a kept version whose owner has not ended and
 * still owns it (holds its claim, or touched it through its own commands and nobody claims it),
 * with that version. Read from the open sessions outward (CROSS JOIN fixes that order;
 * `preserved_by_owner` seeks each one's rows), so a year of ended owners' versions costs every
 * hook nothing. Exported for the test that reads its query plan.
 */
export const WATCHED_FILES_SQL = `SELECT p.path, p.owner, p.version, p.stamp, p.blob, p.seq
       FROM sessions s CROSS JOIN preserved p ON p.owner = s.id AND p.worktree = ?
      WHERE s.ended_seq IS NULL AND p.reason IN ${KEPT_IN}
        AND p.version = (SELECT max(q.version) FROM preserved q WHERE q.worktree = p.worktree
              AND q.path = p.path AND q.owner = p.owner AND q.reason IN ${KEPT_IN})
        AND (EXISTS (SELECT 1 FROM claims c WHERE c.worktree = p.worktree AND c.path = p.path AND c.session_id = p.owner)
          OR (NOT EXISTS (SELECT 1 FROM claims c WHERE c.worktree = p.worktree AND c.path = p.path)
              AND EXISTS (SELECT 1 FROM touched t WHERE t.session_id = p.owner AND t.worktree = p.worktree
                    AND t.path = p.path AND t.unattributed = 0)))`;

/** The watched files of `worktree` (WATCHED_FILES_SQL), with the version each was last kept at. */
export function watchedFiles(db: Db, worktree: string): KeptRow[] {
  return stmt(db, WATCHED_FILES_SQL).all(worktree) as KeptRow[];
}

/** The newest kept version of one file for one owner. */
export function newestKept(db: Db, worktree: string, path: string, owner: string): Kept | null {
  const row = stmt(
    db,
    `SELECT version, stamp, blob, seq FROM preserved WHERE worktree = ? AND path = ? AND owner = ?
       AND reason IN ${KEPT_IN} ORDER BY version DESC LIMIT 1`,
  ).get(worktree, path, owner) as Kept | undefined;
  return row ?? null;
}

/** The next version number of a file for an owner: versions count up over every reason. */
export function nextVersion(db: Db, worktree: string, path: string, owner: string): number {
  const row = stmt(
    db,
    "SELECT max(version) AS v FROM preserved WHERE worktree = ? AND path = ? AND owner = ?",
  ).get(worktree, path, owner) as { v: number | null };
  return (row.v ?? 0) + 1;
}

/** Whether a clobber of the file for this owner was recorded after event `seq`. */
export function clobberedSince(db: Db, worktree: string, path: string, owner: string, seq: number): boolean {
  return (
    stmt(db, "SELECT 1 FROM clobbers WHERE owner = ? AND worktree = ? AND path = ? AND seq > ? LIMIT 1").get(
      owner,
      worktree,
      path,
      seq,
    ) !== undefined
  );
}

/** Whether the owner's own commands recorded touching the file after event `seq` (its removal). */
export function touchedSince(db: Db, owner: string, worktree: string, path: string, seq: number): boolean {
  const rows = stmt(
    db,
    "SELECT data FROM events WHERE session_id = ? AND kind = 'files.touched' AND seq > ? ORDER BY seq",
  ).all(owner, seq) as { data: string }[];
  return rows.some((r) => {
    const d = JSON.parse(r.data) as { worktree: string; paths: string[]; unattributed?: string[] };
    return d.worktree === worktree && (d.paths.includes(path) || (d.unattributed ?? []).includes(path));
  });
}

/** How many of a session's newest tool events are read to find its open calls. */
const RECENT_CALLS = 32;

/** A session's newest tool calls asked for and completed, oldest first. */
export function recentCalls(db: Db, session: string): CallEvent[] {
  const rows = stmt(
    db,
    `SELECT kind, ts, data FROM events WHERE session_id = ? AND kind IN ('tool.requested', 'tool.completed')
      ORDER BY seq DESC LIMIT ${RECENT_CALLS}`,
  ).all(session) as { kind: string; ts: number; data: string }[];
  return rows.reverse().map((r) => {
    const d = JSON.parse(r.data) as { toolUseId?: string | null; targets?: string[] };
    return {
      kind: r.kind === "tool.requested" ? "requested" : "completed",
      id: d.toolUseId ?? null,
      ts: r.ts,
      targets: d.targets ?? [],
    };
  });
}

/**
 * A session's shell commands not yet measured, started since `since`: whether one was measured
 * over the whole tree (opaque, git: it may change any file), and the files the others name
 * (relative to the repository top).
 */
export function openShellCommands(
  db: Db,
  session: string,
  since: number,
): { tree: boolean; named: string[] } {
  const rows = stmt(
    db,
    `SELECT scope, dirty FROM shell_snapshots WHERE session_id = ? AND ended_at IS NULL
       AND tool_use_id != 'turn:' AND started_at >= ?`,
  ).all(session, since) as { scope: string; dirty: string }[];
  return {
    tree: rows.some((r) => r.scope !== "named"),
    named: rows.flatMap((r) => (r.scope === "named" ? Object.keys(JSON.parse(r.dirty) as object) : [])),
  };
}

/** Whether `session` owns the file: holds its claim, or touched it and nobody claims it. */
export function owns(db: Db, worktree: string, path: string, session: string): boolean {
  const claim = stmt(db, "SELECT session_id FROM claims WHERE worktree = ? AND path = ?").get(
    worktree,
    path,
  ) as { session_id: string } | undefined;
  if (claim) return claim.session_id === session;
  return (
    stmt(
      db,
      "SELECT 1 FROM touched WHERE session_id = ? AND worktree = ? AND path = ? AND unattributed = 0",
    ).get(session, worktree, path) !== undefined
  );
}

/**
 * The owners with a preserved version in `worktree` (of `path` only, when given), most recently
 * preserved first: what a person's `recover --list` walks when it acts for no session.
 */
export function preservingOwners(db: Db, worktree: string, path: string | null): string[] {
  const rows = stmt(
    db,
    `SELECT owner, max(seq) AS last FROM preserved WHERE worktree = ? AND (? IS NULL OR path = ?)
      GROUP BY owner ORDER BY last DESC`,
  ).all(worktree, path, path) as { owner: string }[];
  return rows.map((r) => r.owner);
}
