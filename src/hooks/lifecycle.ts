import { livePeers } from "../claims/live-peers.js";
import { ALLOW, type Verdict } from "../clients/types.js";
import { formatConfigProblem } from "../config/problems.js";
import { sessionStartContext } from "../core/session-context.js";
import { append, write } from "../store/ledger.js";
import { claimsOf, sessionById } from "../store/queries.js";
import { agentCmd, type HookCtx, hookSession } from "./context.js";
import { elsewhereContext } from "./remote-context.js";
import { syncSoon } from "./remote-sync.js";

/**
 * session-start: register, then tell the agent who it is, the ritual, its live peers, and any
 * config problem (the agent passes it on to its user, who can fix the file).
 */
export function onSessionStart(ctx: HookCtx): Verdict {
  const session = write(ctx.db, () => hookSession(ctx));
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
    now: ctx.now,
  });
  syncSoon(ctx, true);
  const elsewhere = elsewhereContext(ctx);
  return { ...ALLOW, context: elsewhere ? `${context}\n\n${elsewhere}` : context };
}

/**
 * session-end: record the end and release every claim in one transaction. Kept
 * to one small write because clients kill SessionEnd hooks after 1.5–3 s.
 */
export function onSessionEnd(ctx: HookCtx): Verdict {
  write(ctx.db, () => {
    const session = hookSession(ctx);
    const base = { session: session.id, ts: ctx.now };
    for (const c of claimsOf(ctx.db, session.id)) {
      append(ctx.db, {
        ...base,
        kind: "claim.released",
        data: { worktree: c.worktree, path: c.path, reason: "session_end" },
      });
    }
    append(ctx.db, { ...base, kind: "session.ended", data: { reason: ctx.input.source ?? "session-end" } });
  });
  syncSoon(ctx, true);
  return ALLOW;
}

/** Events Tandem does not act on are still recorded as activity, never fatal. */
export function onOther(ctx: HookCtx): Verdict {
  write(ctx.db, () => {
    const session = hookSession(ctx);
    const activity = /notification|permission/i.test(ctx.input.event) ? "needs_input" : "working";
    append(ctx.db, { kind: "activity.set", session: session.id, ts: ctx.now, data: { activity } });
  });
  return ALLOW;
}
