import type { Verdict } from "../clients/types.js";
import { containsStatusBox } from "../core/ritual/status-box.js";
import { type RitualEvent, stopVerdict } from "../core/ritual/verdict.js";
import { ruleText } from "../core/rules/catalog.js";
import { recentSessionEvents } from "../store/events/reads.js";
import { append, write } from "../store/ledger/append.js";
import { agentCmd, type HookCtx, hookSession } from "./context.js";
import { watchOwnedWork } from "./owner-watch.js";
import { recordTurnDelta } from "./shell-delta.js";

const BLOCK_CAP = 2;
/** Enough history for the window walk-back; older events cannot be in the turn. */
const WINDOW_EVENTS = 2000;

function recentEvents(ctx: HookCtx, session: string): RitualEvent[] {
  return recentSessionEvents(ctx.db, session, WINDOW_EVENTS);
}

/**
 * Stop (docs/product.md §6): refresh the session and record what the turn changed, then
 * judge the ritual and record `turn.stopped` whatever the client will do with it.
 */
export async function onStop(ctx: HookCtx): Promise<Verdict> {
  await recordTurnDelta(ctx);
  watchOwnedWork(ctx);
  const verdict = write(
    ctx.db,
    (tx) => {
      const session = hookSession(ctx, tx);
      const events = recentEvents(ctx, session.id);
      const v = stopVerdict({
        client: ctx.client,
        sessionKind: session.kind,
        events,
        cutoffSeq: events[events.length - 1]?.seq ?? 0,
        lastAssistantMessage: ctx.input.lastAssistantMessage,
        mode: ctx.config.stopRitual,
        requireGitFinalization: ctx.config.requireGitFinalization,
        blockCap: BLOCK_CAP,
        replyHasBox: containsStatusBox(ctx.input.lastAssistantMessage),
      });
      append(tx, {
        kind: "turn.stopped",
        session: session.id,
        ts: ctx.now,
        data: {
          verdict: v.verdict,
          rule: v.rule,
          enforcement: v.enforcement,
          reason: v.note,
          missing: v.missing,
        },
      });
      return v;
    },
    "gating",
  );
  if (verdict.verdict === "pass" || verdict.enforcement !== "enforced") {
    return { allow: true, rule: verdict.rule, reason: null };
  }
  // A follow-up client submits the reason as a new prompt: the marker keeps it in the same window.
  // One that also shows the reason to the person (Gemini) gets it plain, known by its lead instead.
  const reason = ruleText(verdict.rule ?? "status", {
    missing: verdict.missing,
    requireGitFinalization: ctx.config.requireGitFinalization,
    agentCmd: agentCmd(ctx),
    marked: ctx.client.ritual.form === "follow-up" && !ctx.client.ritual.plainFollowUp,
  });
  return { allow: false, block: true, rule: verdict.rule, reason };
}
