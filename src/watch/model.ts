import { join } from "node:path";
import { findLeftWork } from "../claims/left-work.js";
import type { Config } from "../config/schema.js";
import { listedAsClaim } from "../core/claims/gone-verdict.js";
import type { LeftItem } from "../core/claims/left-work.js";
import type { GuardMode } from "../core/jail/rewrite.js";
import type { Printer } from "../core/printed.js";
import type { RemoteView } from "../core/remote/remote-view.js";
import type { RemoteRow } from "../core/ui/board-rows.js";
import { lineFiles, type UiLineFile } from "../core/ui/line-rows.js";
import { readRemoteView } from "../remote/view-data.js";
import { guardOf } from "../sessions/guard.js";
import { type SessionView, sessionViews } from "../sessions/view.js";
import { allLineAuthors } from "../store/claims/line-authors.js";
import { allClaims } from "../store/claims/rows.js";
import type { Db } from "../store/db.js";
import { listEvents, maxSeq } from "../store/events/list.js";
import { sessionById } from "../store/sessions/rows.js";
import { type SubagentRow, subagentRows } from "../subagents/lifecycle/rows.js";
import { eventDetail, eventTone, type Tone } from "./events.js";

export type SessionState = "live" | "stale" | "ended";

export interface BoardSession {
  name: string;
  client: string;
  kind: "session" | "subagent";
  state: SessionState;
  activity: string;
  task: string | null;
  claims: number;
  lastSeen: number;
  /** The guard in force for its commands: `kernel` or `reader` (issue 36 §4). */
  guard: GuardMode;
}

export interface BoardClaim {
  /** Relative to the root for the root's own worktree, else the worktree joined with the path. */
  path: string;
  holder: string;
  state: SessionState;
  lastSeen: number;
}

export interface BoardEvent {
  seq: number;
  ts: number;
  who: string;
  kind: string;
  detail: string;
  tone: Tone;
}

/** A file a session left uncommitted when it ended (decision 0029). */
export interface BoardLeft {
  path: string;
  owner: string;
  client: string;
  task: string | null;
  ended: boolean;
  /** When the owner ended, or was last seen. */
  at: number;
}

/** One row of the board's ELSEWHERE section. */
export type BoardRemoteRow = RemoteRow;

/** Everything the board shows, as plain data: `renderBoard` only lays it out. */
export interface BoardModel {
  root: string;
  now: number;
  seq: number;
  sessions: BoardSession[];
  claims: BoardClaim[];
  /** Left work (decision 0029); absent: none. */
  left?: BoardLeft[];
  /** Files shared by lines, each hunk with its authors (decision 0061); absent: none. */
  lines?: UiLineFile[];
  subagents: SubagentRow[];
  events: BoardEvent[];
  /** Other checkouts, from the last sync; absent when the board does not look beyond this one. */
  elsewhere?: RemoteView;
}

export interface BoardConfig {
  root: string;
  /** The repository top, to ask git which files are left work; absent: none shown. */
  repoTop?: string | null;
  freshnessSeconds: number;
  /** How many of the most recent events to keep. */
  events: number;
  /** Ended sessions older than this drop off the board (they stay in `tandem sessions --all`). */
  endedWindowMs?: number;
  /** Where to read other checkouts' presence (docs/decisions/0014); absent: not shown. */
  /** `printer`: the board's reader's (a person), for the fixes it shows. */
  remote?: { stateDir: string; config: Config; printer: Printer };
  /** The config's `guard`; absent: the reader. */
  guard?: GuardMode;
}

const STATE_ORDER: Record<SessionState, number> = { live: 0, stale: 1, ended: 2 };

const stateOf = (s: SessionView): SessionState => (s.ended ? "ended" : s.live ? "live" : "stale");

function boardSessions(
  views: readonly SessionView[],
  now: number,
  endedWindowMs: number,
  guard: GuardMode,
): BoardSession[] {
  return views
    .filter((s) => !s.ended || now - s.lastSeen <= endedWindowMs)
    .map((s) => ({
      name: s.name,
      client: s.client,
      kind: s.kind,
      state: stateOf(s),
      activity: s.activity,
      task: s.task,
      claims: s.claims,
      lastSeen: s.lastSeen,
      guard: guardOf(s, guard),
    }))
    .sort((a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state] || b.lastSeen - a.lastSeen);
}

/** Held claims; a gone holder's claim on its left work is shown under left work instead. */
function boardClaims(
  db: Db,
  views: readonly SessionView[],
  root: string,
  left: readonly LeftItem[],
): BoardClaim[] {
  const byId = new Map(views.map((s) => [s.id, s]));
  const out: BoardClaim[] = [];
  for (const c of allClaims(db)) {
    const s = byId.get(c.session_id);
    const ref = { session: c.session_id, worktree: c.worktree, path: c.path };
    if (!listedAsClaim(ref, s?.live === true, left, root)) continue;
    out.push({
      path: c.worktree === root ? c.path : join(c.worktree, c.path),
      holder: s?.name ?? c.session_id,
      state: s ? stateOf(s) : "ended",
      lastSeen: s?.lastSeen ?? 0,
    });
  }
  // Claims that block come first; stale ones are shown but no longer stop anyone (docs/product.md §4.3).
  return out.sort((a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state]);
}

function leftItems(db: Db, now: number, cfg: BoardConfig): LeftItem[] {
  if (cfg.repoTop === undefined) return [];
  const q = { worktree: cfg.root, repoTop: cfg.repoTop, now, freshnessSeconds: cfg.freshnessSeconds };
  return findLeftWork(db, q).left;
}

function boardLeft(left: readonly LeftItem[]): BoardLeft[] {
  return left.map((i) => ({
    path: i.path,
    owner: i.owner.name,
    client: i.owner.client,
    task: i.owner.task,
    ended: i.owner.ended,
    at: i.owner.at,
  }));
}

function recentEvents(db: Db, seq: number, views: readonly SessionView[], cfg: BoardConfig): BoardEvent[] {
  const names = new Map(views.map((s) => [s.id, s.name]));
  // Sequence numbers come from AUTOINCREMENT inside transactions, so the last N events are the last N seqs.
  return listEvents(db, { sinceSeq: Math.max(0, seq - cfg.events) }).map((ev) => ({
    seq: ev.seq,
    ts: ev.ts,
    who: ev.session ? (names.get(ev.session) ?? ev.session) : "-",
    kind: ev.kind,
    detail: eventDetail(ev, names, cfg.root),
    tone: eventTone(ev),
  }));
}

/**
 * Files shared by lines, as the store last recorded them (a hook's write, or blame, stage or undo):
 * the board reads no file and runs no git for them. Paths as the claims show them.
 */
function sharedLines(db: Db, views: readonly SessionView[], root: string): UiLineFile[] {
  const byId = new Map(views.map((s) => [s.id, s]));
  const lookup = (id: string) => byId.get(id) ?? sessionById(db, id) ?? null;
  const files = allLineAuthors(db).map((r) => ({
    path: r.worktree === root ? r.path : join(r.worktree, r.path),
    hunks: r.hunks,
  }));
  return lineFiles(files, lookup);
}

/** Reads the board's state from the store at `now`; `db` null means no store exists yet. */
export function boardModel(db: Db | null, now: number, cfg: BoardConfig): BoardModel {
  const empty = {
    root: cfg.root,
    now,
    seq: 0,
    sessions: [],
    claims: [],
    left: [],
    subagents: [],
    events: [],
  };
  if (!db) return empty;
  const seq = maxSeq(db);
  const views = sessionViews(db, cfg.freshnessSeconds, now);
  const left = leftItems(db, now, cfg);
  return {
    ...empty,
    seq,
    sessions: boardSessions(views, now, cfg.endedWindowMs ?? 3_600_000, cfg.guard ?? "reader"),
    claims: boardClaims(db, views, cfg.root, left),
    left: boardLeft(left),
    lines: sharedLines(db, views, cfg.root),
    subagents: subagentRows(db, views),
    events: recentEvents(db, seq, views, cfg),
    ...(cfg.remote ? { elsewhere: readRemoteView(db, { ...cfg.remote, now }) } : {}),
  };
}
