/**
 * The reader becomes the message (issue 36 §5): a write the reader let through and the kernel
 * refused shows in the command's output as `EROFS`/`EACCES` on a path the session's jail made
 * read-only. The post-tool hook tells the agent whose it was and what to do, and records it as
 * `jail.write.refused`. The decision is src/core/jail/refused-writes.ts.
 */
import type { ToolCall } from "../clients/types.js";
import { type RefusedWrite, refusedWrites } from "../core/jail/refused-writes.js";
import { spanned } from "../core/printed.js";
import { sessionPlan } from "../jail/plan.js";
import { append, write } from "../store/ledger/append.js";
import { shellCommandOf } from "../targets/tool-targets.js";
import { agentPrinter, type HookCtx, hookSession, selfSession } from "./context.js";

/** Cheap first look: most outputs report no refusal, and the plan costs a look at the store. */
const MAYBE =
  /Read-only file system|Permission denied|Operation not permitted|Device or resource busy|Invalid cross-device link|\[Errno (30|13|1|16|18)\]/;

function told(ctx: HookCtx, hits: readonly RefusedWrite[]): string {
  const list = hits.map((h) => `${h.named} (${h.bind.reasons.join("; ")})`).join(", ");
  const status = spanned(agentPrinter(ctx), "status");
  const head = `Tandem: the kernel refused that command's write to ${list}, so nothing there changed.`;
  // A peer's work has a holder to ask; Tandem's state, its installation and the wiring have none.
  const peers = hits.some((h) => h.bind.reasons.some((r) => /'s (uncommitted file|worktree)$/.test(r)));
  return peers
    ? `${head} The jail keeps other agents' uncommitted work read-only: leave those files to their holder, ask them (or the person) to commit or release them, see who holds what with ${status}, and write your own files instead.`
    : `${head} Those are Tandem's own files or the clients' wiring, read-only in every jail: do not write them; if they need a change, ask the person.`;
}

/** The message for the agent, recorded; null when the output reports no refused write of the jail's. */
export function kernelTold(ctx: HookCtx, tool: ToolCall): string | null {
  if (!tool.output || !MAYBE.test(tool.output)) return null;
  const plan = sessionPlan({
    db: ctx.db,
    resolved: ctx.root,
    stateDir: ctx.stateDir,
    self: selfSession(ctx),
    freshnessSeconds: ctx.config.freshnessSeconds,
    now: ctx.now,
    env: ctx.req.env,
  });
  const cwd = tool.cwd ?? ctx.input.cwd ?? ctx.root.root;
  const hits = refusedWrites(tool.output, cwd, plan.binds, shellCommandOf(tool) ?? "");
  if (hits.length === 0) return null;
  write(ctx.db, (tx) =>
    append(tx, {
      kind: "jail.write.refused",
      session: hookSession(ctx, tx).id,
      ts: ctx.now,
      data: { tool: tool.name, paths: hits.map((h) => ({ path: h.named, why: h.bind.reasons.join("; ") })) },
    }),
  );
  return told(ctx, hits);
}
