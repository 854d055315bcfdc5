import type { RitualEvent } from "../core/ritual/verdict.js";
import type { UiClaim, UiParts, UiRemote, UiSubagent } from "../core/ui/protocol.js";
import { sortSessions, type TurnState, turnState, type UiSession } from "../core/ui/session-rows.js";
import { readRemoteView } from "../remote/view-data.js";
import { guardOf } from "../sessions/guard.js";
import { RECENT_ENDED_MS, type SessionView, sessionViews } from "../sessions/view.js";
import type { Db } from "../store/db.js";
import { recentSessionEvents } from "../store/events/reads.js";
import { lastSeqs } from "../store/sessions/rows.js";
import { recordRow } from "../subagents/lifecycle/rows.js";
import { presentSubs } from "../subagents/shared/records.js";
import { remoteRows, remoteSummary } from "../watch/elsewhere.js";
import { boardModel } from "../watch/model.js";
import { printerOf } from "../wiring/agent-shell.js";
import type { UiContext } from "./context.js";

/** Events of one session read to judge its turn: the window starts at its latest prompt, never far back. */
const TURN_EVENTS = 200;

/**
 * Turn states by session, re-read only for sessions whose last event moved since the previous
 * read: with 50 sessions a change re-reads one or two of them.
 */
export class TurnCache {
  private readonly known = new Map<string, { lastSeq: number; turn: TurnState }>();

  get(db: Db, id: string, lastSeq: number, requireGit: boolean): TurnState {
    const hit = this.known.get(id);
    if (hit && hit.lastSeq === lastSeq) return hit.turn;
    const events: RitualEvent[] = recentSessionEvents(db, id, TURN_EVENTS);
    const turn = turnState(events, requireGit);
    this.known.set(id, { lastSeq, turn });
    return turn;
  }
}

function sessions(db: Db, views: SessionView[], ctx: UiContext, turns: TurnCache, now: number): UiSession[] {
  const seqs = lastSeqs(db, now - RECENT_ENDED_MS);
  const requireGit = ctx.loaded.config.requireGitFinalization;
  return sortSessions(
    views.map((s) => ({
      id: s.id,
      name: s.name,
      client: s.client,
      kind: s.kind,
      state: s.ended ? "ended" : s.live ? "live" : "stale",
      activity: s.activity,
      task: s.task,
      claims: s.claims,
      lastSeen: s.lastSeen,
      turn: turns.get(db, s.id, seqs.get(s.id) ?? 0, requireGit),
      guard: guardOf(s, ctx.loaded.config.guard),
    })),
  );
}

function subagents(db: Db, views: SessionView[]): UiSubagent[] {
  const names = new Map(views.map((s) => [s.id, s.name]));
  const subs = presentSubs(db);
  const recorded = subs.map((s) => ({ id: s.id, ...recordRow(db, s, names) }));
  // A client's own sub-agents (no `tandem sub` record) have nothing captured: state only.
  const children = new Set(subs.map((s) => s.childSession));
  const loose = views
    .filter((s) => s.kind === "subagent" && !s.ended && !children.has(s.id))
    .map((s) => ({
      id: null,
      name: s.name,
      parent: s.parentId ? (names.get(s.parentId) ?? s.parentId) : null,
      client: s.client,
      state: s.live ? "running" : "stale",
      capture: "-",
      apply: "-",
      running: s.live,
      problem: false,
    }));
  return [...recorded, ...loose];
}

function remote(db: Db, ctx: UiContext, now: number): UiRemote | null {
  // The browser board is a person's: its fixes are spelled as their terminal starts Tandem.
  const printer = printerOf(ctx.root, ctx.stateDir, "person");
  const view = readRemoteView(db, { stateDir: ctx.stateDir, config: ctx.loaded.config, now, printer });
  const rows = remoteRows(view, now);
  if (view.state === "off" || view.state === "no-remote") return null;
  return { ...remoteSummary(view, now), rows };
}

/** Everything but the event history, as of `now`. */
export function readParts(db: Db, ctx: UiContext, now: number, turns: TurnCache): UiParts {
  const freshness = ctx.loaded.config.freshnessSeconds;
  const views = sessionViews(db, freshness, now);
  // The terminal board's reading of claims: holders named, paths relative to the root.
  const board = boardModel(db, now, {
    root: ctx.root,
    freshnessSeconds: freshness,
    events: 0,
    ...(ctx.repoTop === undefined ? {} : { repoTop: ctx.repoTop }),
  });
  const claims: UiClaim[] = board.claims.map((c) => ({ path: c.path, holder: c.holder, state: c.state }));
  return {
    sessions: sessions(db, views, ctx, turns, now),
    claims,
    left: board.left ?? [],
    subagents: subagents(db, views),
    remote: remote(db, ctx, now),
    lines: board.lines ?? [],
  };
}
