import { sessionsToCompact } from "../../core/upkeep/retention.js";
import type { Db, WriteTx } from "../db.js";
import { stmt } from "../db.js";
import type { EventData } from "../events/schemas.js";
import { append } from "../ledger/append.js";
import { sessionById } from "../sessions/rows.js";

/**
 * Kinds whose whole effect is on their own session's rows (and, for claims, on the files it
 * claimed), so a summary can stand in for them. Sub-agent, apply and safety-net events are
 * read back by sequence number and are never removed (docs/decisions/0012).
 */
export const COMPACTABLE_KINDS = [
  "session.started",
  "session.ended",
  "activity.set",
  "prompt.submitted",
  "tool.requested",
  "tool.completed",
  "files.touched",
  "stash.created",
  "claim.acquired",
  "claim.released",
  "claim.denied",
  "task.set",
  "status.checked",
  "turn.stopped",
  "hook.error",
  "commit.guarded",
] as const;

const KINDS_SQL = COMPACTABLE_KINDS.map((k) => `'${k}'`).join(", ");

type Summary = EventData<"session.compacted">;
type Tuple<K extends keyof Summary> = Summary[K] extends (infer T)[] ? T : never;

function compactableEvents(db: Db, id: string) {
  return stmt(
    db,
    `SELECT seq, ts, kind, data FROM events WHERE session_id = ? AND kind IN (${KINDS_SQL}) ORDER BY seq`,
  ).all(id) as { seq: number; ts: number; kind: string; data: string }[];
}

/** How many of a session's events compaction would remove (bounded by that session's own events). */
export function countCompactable(db: Db, id: string): number {
  return (
    stmt(db, `SELECT count(*) AS n FROM events WHERE session_id = ? AND kind IN (${KINDS_SQL})`).get(id) as {
      n: number;
    }
  ).n;
}

/**
 * Replaces one ended session's compactable events by a `session.compacted` summary, inside the
 * caller's write transaction. The rule is judged again under the lock (a session can be seen
 * again, or take a claim, after gc chose it). Returns how many events it removed.
 */
export function compactSession(db: WriteTx, id: string, cutoff: number, ts: number): number {
  const s = sessionById(db, id);
  if (!s) return 0;
  const claims = (stmt(db, "SELECT count(*) AS n FROM claims WHERE session_id = ?").get(id) as { n: number })
    .n;
  const facts = { id, ended: s.ended_seq !== null, lastSeen: s.last_seen, claims, compactable: 1 };
  if (sessionsToCompact([facts], cutoff).length === 0) return 0;
  const events = compactableEvents(db, id);
  if (events.length === 0) return 0;
  const counts: Record<string, number> = {};
  const stashes: Summary["stashes"] = [];
  const holderKeys: [string, string, string][] = [];
  for (const e of events) {
    counts[e.kind] = (counts[e.kind] ?? 0) + 1;
    if (e.kind === "stash.created") stashes.push(JSON.parse(e.data));
    if (e.kind === "claim.released") {
      const r = JSON.parse(e.data) as EventData<"claim.released">;
      if (r.holder && r.holder !== id) holderKeys.push([r.holder, r.worktree, r.path]);
    }
  }
  const history = stmt(
    db,
    `SELECT worktree, path, first_seq, last_seq, released_seq, release_reason FROM claim_history
     WHERE session_id = ? ORDER BY worktree, path`,
  ).all(id) as {
    worktree: string;
    path: string;
    first_seq: number;
    last_seq: number;
    released_seq: number | null;
    release_reason: string | null;
  }[];
  const claimHistory: Tuple<"claimHistory">[] = history.map((h) => [
    h.worktree,
    h.path,
    h.first_seq,
    h.last_seq,
    h.released_seq,
    h.release_reason,
  ]);
  const holderRow = stmt(
    db,
    `SELECT first_seq, last_seq, released_seq, release_reason FROM claim_history
     WHERE session_id = ? AND worktree = ? AND path = ?`,
  );
  const holderHistory: Tuple<"holderHistory">[] = [];
  for (const [holder, worktree, path] of holderKeys) {
    const h = holderRow.get(holder, worktree, path) as (typeof history)[number] | undefined;
    if (h)
      holderHistory.push([holder, worktree, path, h.first_seq, h.last_seq, h.released_seq, h.release_reason]);
  }
  const claimRow = stmt(db, "SELECT * FROM claims WHERE worktree = ? AND path = ?");
  const heldNow: Tuple<"heldNow">[] = [];
  const keys = new Set<string>();
  for (const [worktree, path] of [
    ...claimHistory,
    ...holderHistory.map((h) => h.slice(1) as [string, string]),
  ]) {
    const key = `${worktree}\0${path}`;
    if (keys.has(key)) continue;
    keys.add(key);
    const c = claimRow.get(worktree, path) as
      | { session_id: string; disposition: string; root: string; acquired_seq: number }
      | undefined;
    if (c) heldNow.push([worktree, path, c.session_id, c.disposition, c.root, c.acquired_seq]);
  }
  const touched = (
    stmt(
      db,
      "SELECT worktree, path, first_seq, unattributed FROM touched WHERE session_id = ? ORDER BY worktree, path",
    ).all(id) as { worktree: string; path: string; first_seq: number; unattributed: number }[]
  ).map((t): Tuple<"touched"> => [t.worktree, t.path, t.first_seq, t.unattributed]);
  stmt(db, `DELETE FROM events WHERE session_id = ? AND kind IN (${KINDS_SQL})`).run(id);
  append(db, {
    kind: "session.compacted",
    session: id,
    ts,
    data: {
      session: {
        id: s.id,
        client: s.client,
        nativeId: s.native_id,
        name: s.name,
        kind: s.kind,
        parentId: s.parent_id,
        agentPid: s.agent_pid,
        agentPidStart: s.agent_pid_start,
        cwd: s.cwd,
        task: s.task,
        activity: s.activity,
        startedSeq: s.started_seq,
        lastSeen: s.last_seen,
        lastSeq: s.last_seq,
        endedSeq: s.ended_seq,
      },
      counts,
      events: events.length,
      firstTs: events[0]!.ts,
      lastTs: events[events.length - 1]!.ts,
      claimHistory,
      touched,
      holderHistory,
      heldNow,
      stashes,
    },
  });
  return events.length;
}
