import type { Db } from "../db.js";
import { stmt } from "../db.js";
import { raw } from "../handle.js";

/** Reads of the event log that answer one question each; the general listing is `listEvents`. */

/** An event's kind and parsed payload, with its position in the log. */
export interface SeqEvent {
  seq: number;
  kind: string;
  data: unknown;
}

/** A session's newest `limit` events, oldest first: the window a turn is judged on. */
export function recentSessionEvents(db: Db, session: string, limit: number): SeqEvent[] {
  const rows = stmt(
    db,
    "SELECT seq, kind, data FROM events WHERE session_id = ? ORDER BY seq DESC LIMIT ?",
  ).all(session, limit) as { seq: number; kind: string; data: string }[];
  return rows.reverse().map((r) => ({ seq: r.seq, kind: r.kind, data: JSON.parse(r.data) }));
}

/** The payload of the session's newest prompt, or null before its first. */
export function lastPromptData(db: Db, session: string): unknown {
  const row = stmt(
    db,
    "SELECT data FROM events WHERE session_id = ? AND kind = 'prompt.submitted' ORDER BY seq DESC LIMIT 1",
  ).get(session) as { data: string } | undefined;
  return row ? JSON.parse(row.data) : null;
}

/** The sequence number of the session's newest prompt: the turn its writes now belong to (null before its first). */
export function lastPromptSeq(db: Db, session: string): number | null {
  const row = stmt(
    db,
    "SELECT seq FROM events WHERE session_id = ? AND kind = 'prompt.submitted' ORDER BY seq DESC LIMIT 1",
  ).get(session) as { seq: number } | undefined;
  return row?.seq ?? null;
}

/** The session's prompts, oldest first: turn n starts at the n-th (decision 0074). */
export function sessionPrompts(db: Db, session: string): { seq: number; ts: number }[] {
  return stmt(
    db,
    "SELECT seq, ts FROM events WHERE session_id = ? AND kind = 'prompt.submitted' ORDER BY seq",
  ).all(session) as { seq: number; ts: number }[];
}

/** Whether a tool call of the session completed since its newest prompt (or ever, before its first). */
export function toolSincePrompt(db: Db, session: string): boolean {
  const prompt = stmt(
    db,
    "SELECT seq FROM events WHERE session_id = ? AND kind = 'prompt.submitted' ORDER BY seq DESC LIMIT 1",
  ).get(session) as { seq: number } | undefined;
  const row = stmt(
    db,
    "SELECT 1 FROM events WHERE session_id = ? AND kind = 'tool.completed' AND seq > ? LIMIT 1",
  ).get(session, prompt?.seq ?? 0);
  return row !== undefined;
}

/** When the event at `seq` happened; undefined when no such event is left. */
export function eventTs(db: Db, seq: number): number | undefined {
  return (stmt(db, "SELECT ts FROM events WHERE seq = ?").get(seq) as { ts: number } | undefined)?.ts;
}

/** The start time of each listed session, by id (sessions whose start event is gone are left out). */
export function startTimes(db: Db, ids: readonly string[]): Map<string, number> {
  const rows = raw(db)
    .prepare(
      `SELECT s.id AS id, e.ts AS ts FROM json_each(?) j JOIN sessions s ON s.id = j.value
       JOIN events e ON e.seq = s.started_seq`,
    )
    .all(JSON.stringify(ids)) as { id: string; ts: number }[];
  return new Map(rows.map((r) => [r.id, r.ts]));
}

/** hook.error events recorded after the event `seq`. */
export function hookErrorsAfterSeq(db: Db, seq: number): number {
  return (
    stmt(db, "SELECT count(*) AS n FROM events WHERE kind = 'hook.error' AND seq > ?").get(seq) as {
      n: number;
    }
  ).n;
}

/** hook.error events recorded at or after `ts`. */
export function hookErrorsSinceTs(db: Db, ts: number): number {
  return (
    raw(db).prepare("SELECT count(*) AS n FROM events WHERE kind = 'hook.error' AND ts >= ?").get(ts) as {
      n: number;
    }
  ).n;
}

/** The hook.error events since `since`, payloads unparsed: a corrupt one is still reported. */
export function hookErrorRows(db: Db, since: number): { ts: number; data: string }[] {
  return raw(db)
    .prepare("SELECT ts, data FROM events WHERE kind = 'hook.error' AND ts >= ? ORDER BY seq")
    .all(since) as { ts: number; data: string }[];
}

/** Every event, payloads unparsed, streamed in order: for checking each one. */
export function rawEvents(db: Db): Iterable<{ seq: number; kind: string; data: string }> {
  return raw(db).prepare("SELECT seq, kind, data FROM events ORDER BY seq").iterate() as Iterable<{
    seq: number;
    kind: string;
    data: string;
  }>;
}

export interface StoreCounts {
  events: number;
  sessions: number;
  claims: number;
  byKind: Record<string, number>;
}

export function storeCounts(db: Db): StoreCounts {
  const n = (sql: string) => (raw(db).prepare(sql).get() as { n: number }).n;
  const byKind: Record<string, number> = {};
  for (const r of raw(db)
    .prepare("SELECT kind, count(*) AS n FROM events GROUP BY kind ORDER BY kind")
    .all() as {
    kind: string;
    n: number;
  }[]) {
    byKind[r.kind] = r.n;
  }
  return {
    events: eventCount(db),
    sessions: n("SELECT count(*) AS n FROM sessions"),
    claims: n("SELECT count(*) AS n FROM claims"),
    byKind,
  };
}

export function eventCount(db: Db): number {
  return (raw(db).prepare("SELECT count(*) AS n FROM events").get() as { n: number }).n;
}

/** When the oldest event still kept happened; null in an empty log. */
export function oldestEventTs(db: Db): number | null {
  const row = raw(db).prepare("SELECT ts FROM events ORDER BY seq LIMIT 1").get() as
    | { ts: number }
    | undefined;
  return row?.ts ?? null;
}

/** The session's start is in the log, or its `tandem gc` summary: its history is whole. */
export function hasSessionStart(db: Db, session: string): boolean {
  return (
    stmt(
      db,
      "SELECT 1 FROM events WHERE session_id = ? AND kind IN ('session.started', 'session.compacted') LIMIT 1",
    ).get(session) !== undefined
  );
}

/** When the session started (ms), from its first recorded event; null when the ledger has none. */
export function sessionStartTs(db: Db, session: string): number | null {
  const row = stmt(db, "SELECT ts FROM events WHERE session_id = ? ORDER BY seq LIMIT 1").get(session) as
    | { ts: number }
    | undefined;
  return row?.ts ?? null;
}

/** The session's `stash.created` and `session.compacted` events, oldest first. */
export function stashEvents(db: Db, session: string): { kind: string; data: unknown }[] {
  const rows = stmt(
    db,
    "SELECT kind, data FROM events WHERE session_id = ? AND kind IN ('stash.created', 'session.compacted') ORDER BY seq",
  ).all(session) as { kind: string; data: string }[];
  return rows.map((r) => ({ kind: r.kind, data: JSON.parse(r.data) }));
}
