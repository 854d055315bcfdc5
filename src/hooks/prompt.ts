import { livePeers } from "../claims/live-peers.js";
import { ALLOW, type Verdict } from "../clients/types.js";
import { digest } from "../core/digest.js";
import { codexFooterInstruction, isRemediationPrompt, ritualReminder } from "../core/ritual/messages.js";
import { sessionStartContext } from "../core/ritual/start-context.js";
import { lastPromptData } from "../store/events/reads.js";
import { append, write } from "../store/ledger/append.js";
import { agentCmd, type HookCtx, hookSession } from "./context.js";
import { watchOwnedWork } from "./owner-watch.js";
import { takeOwnerNotice } from "./safety-net.js";
import { saveTurnSnapshot } from "./shell-delta.js";

/** Prompts are stored clamped; nothing decides on their full text. */
const PROMPT_LIMIT = 4000;

/** Only the newest prompt matters; reading every earlier one grew with the session. */
function lastPeersDigest(ctx: HookCtx, session: string): string | null {
  const data = lastPromptData(ctx.db, session) as { peersDigest?: string } | null;
  return data?.peersDigest ?? null;
}

/**
 * user-prompt-submit (docs/product.md §4.5): record the prompt, tell the agent when its
 * peers changed since its last prompt, remind it of the ritual; human-facing
 * Codex sessions get the status-footer instruction on every prompt.
 */
export async function onPrompt(ctx: HookCtx): Promise<Verdict> {
  const text = ctx.input.prompt ?? "";
  const remediation = isRemediationPrompt(text, ctx.client.ritual.plainFollowUp === true);
  // Before the notice is taken, so a change found now is told in this answer.
  watchOwnedWork(ctx);
  const context = write(
    ctx.db,
    (tx) => {
      const session = hookSession(ctx, tx);
      const peers = livePeers(ctx.db, session.id, ctx.config.freshnessSeconds, ctx.now);
      const summary = peers.map((p) => `${p.name}|${p.task}|${p.claims.join(",")}`).join("\n");
      const peers64 = digest(summary);
      const last = lastPeersDigest(ctx, session.id);
      const changed = peers64 !== last;
      append(tx, {
        kind: "prompt.submitted",
        session: session.id,
        ts: ctx.now,
        data: {
          text: text.slice(0, PROMPT_LIMIT),
          bytes: Buffer.byteLength(text),
          truncated: text.length > PROMPT_LIMIT,
          remediation,
          turnId: ctx.input.turnId,
          peersDigest: peers64,
        },
      });
      const notice = takeOwnerNotice(ctx, tx, session);
      if (session.kind === "subagent") return notice;
      const parts: string[] = notice ? [notice] : [];
      if (changed && peers.length > 0) {
        const full = sessionStartContext({
          name: session.name,
          client: session.client,
          kind: "session",
          parentName: null,
          requireGitFinalization: ctx.config.requireGitFinalization,
          peers,
          now: ctx.now,
        });
        // A first prompt has no "last prompt" to compare with: it is told who is here.
        const headline =
          last === null
            ? "Tandem: other agents are working in this checkout."
            : "Tandem: your peers changed since your last prompt.";
        parts.push(`${headline}\n${full.split("\n").slice(2).join("\n")}`);
      }
      parts.push(
        ctx.client.ritual.prompt === "footer"
          ? codexFooterInstruction(ctx.config.requireGitFinalization, agentCmd(ctx))
          : ritualReminder(ctx.config.requireGitFinalization, agentCmd(ctx)),
      );
      return parts.join("\n");
    },
    "gating",
  );
  await saveTurnSnapshot(ctx);
  return context ? { ...ALLOW, context } : ALLOW;
}
