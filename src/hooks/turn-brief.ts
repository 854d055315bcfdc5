import { livePeers } from "../claims/live-peers.js";
import { sessionStartContext } from "../core/ritual/start-context.js";
import { toolSincePrompt } from "../store/events/reads.js";
import type { SessionRow } from "../store/sessions/rows.js";
import { agentCmd, type HookCtx } from "./context.js";

/**
 * For a client that drops what its start and prompt hooks answer (`ritual.promptVia`, Cline): the
 * turn's first tool result carries what they would have said, the agent's name, its live peers and
 * the ritual. Called inside the post-tool transaction, before this call's `tool.completed`.
 */
export function turnBrief(ctx: HookCtx, session: SessionRow): string | null {
  if (ctx.client.ritual.promptVia !== "first-tool" || session.kind === "subagent") return null;
  if (toolSincePrompt(ctx.db, session.id)) return null;
  return sessionStartContext({
    name: session.name,
    client: session.client,
    kind: "session",
    parentName: null,
    requireGitFinalization: ctx.config.requireGitFinalization,
    command: agentCmd(ctx),
    peers: livePeers(ctx.db, session.id, ctx.config.freshnessSeconds, ctx.now),
    now: ctx.now,
  });
}
