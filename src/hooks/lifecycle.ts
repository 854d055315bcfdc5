import { livePeers } from "../claims/live-peers.js";
import { ALLOW, type Verdict } from "../clients/types.js";
import { formatConfigProblem } from "../config/problems.js";
import { sessionStartContext } from "../core/ritual/start-context.js";
import { endsSession, type SessionEndFacts } from "../core/sessions/end.js";
import { elsewhereContext } from "../remote/elsewhere.js";
import { syncSoon } from "../remote/sync-soon.js";
import { discoverAgent } from "../sessions/discover.js";
import { processAlive } from "../sessions/proc.js";
import { claimsOf } from "../store/claims/rows.js";
import { append, write } from "../store/ledger/append.js";
import { type SessionRow, sessionById } from "../store/sessions/rows.js";
import { agentCmd, type HookCtx, hookSession } from "./context.js";
import { noticeLeftWork } from "./left-work.js";
import { recordOpenFailure } from "./open-failure.js";

/**
 * session-start: register, then tell the agent who it is, the ritual, its live peers, and any
 * config problem (the agent passes it on to its user, who can fix the file).
 */
export function onSessionStart(ctx: HookCtx): Verdict {
  const session = write(ctx.db, (tx) => hookSession(ctx, tx), "gating");
  const parent = session.parent_id ? sessionById(ctx.db, session.parent_id) : undefined;
  const context = sessionStartContext({
    name: session.name,
    client: session.client,
    kind: session.kind,
    parentName: parent?.name ?? session.parent_id,
    requireGitFinalization: ctx.config.requireGitFinalization,
    command: agentCmd(ctx),
    configProblems: ctx.configProblems.map((p) => formatConfigProblem(p, ctx.root.root)),
    peers: livePeers(ctx.db, session.id, ctx.config.freshnessSeconds, ctx.now),
    left: leftForContext(ctx),
    now: ctx.now,
  });
  syncSoon(ctx, true);
  const elsewhere = elsewhereContext(ctx);
  return { ...ALLOW, context: elsewhere ? `${context}\n\n${elsewhere}` : context };
}

/** Observational: a failure to find left work leaves the context without it. */
function leftForContext(ctx: HookCtx) {
  try {
    return noticeLeftWork(ctx);
  } catch (err) {
    recordOpenFailure(ctx, "noticing left work", err);
    return [];
  }
}

/**
 * session-end: record the end and release every claim in one transaction. Kept
 * to one small write because clients kill SessionEnd hooks after 1.5–3 s.
 */
export function onSessionEnd(ctx: HookCtx): Verdict {
  write(
    ctx.db,
    (tx) => {
      const session = hookSession(ctx, tx);
      const base = { session: session.id, ts: ctx.now };
      if (!endsSession(sessionEndFacts(ctx, session))) {
        // One prompt-mode run of a session whose own process lives on: that run is idle, no more.
        append(tx, { ...base, kind: "activity.set", data: { activity: "idle" } });
        return;
      }
      for (const c of claimsOf(ctx.db, session.id)) {
        append(tx, {
          ...base,
          kind: "claim.released",
          data: { worktree: c.worktree, path: c.path, reason: "session_end" },
        });
      }
      append(tx, { ...base, kind: "session.ended", data: { reason: ctx.input.source ?? "session-end" } });
    },
    "gating",
  );
  syncSoon(ctx, true);
  return ALLOW;
}

/** What decides whether this session-end ends the session: only process reads, no store writes. */
function sessionEndFacts(ctx: HookCtx, session: SessionRow): SessionEndFacts {
  const runEndReasons = ctx.client.runEndReasons ?? [];
  const reason = ctx.input.source;
  if (reason === null || !runEndReasons.includes(reason) || !session.ui_pid)
    return { reason, runEndReasons, uiAlive: null, fromUi: false };
  const sender = discoverAgent(ctx.client, ctx.req.env, ctx.req.pid);
  return {
    reason,
    runEndReasons,
    uiAlive: processAlive(session.ui_pid, session.ui_pid_start),
    fromUi:
      sender?.pid === session.ui_pid &&
      (session.ui_pid_start === null || sender.start === session.ui_pid_start),
  };
}

/** Events Tandem does not act on are still recorded as activity, never fatal. */
export function onOther(ctx: HookCtx): Verdict {
  write(
    ctx.db,
    (tx) => {
      const session = hookSession(ctx, tx);
      const activity = /notification|permission/i.test(ctx.input.event) ? "needs_input" : "working";
      append(tx, { kind: "activity.set", session: session.id, ts: ctx.now, data: { activity } });
    },
    "gating",
  );
  return ALLOW;
}
