/**
 * After an edit tool ran: what it changed in each file it names is its session's (decision 0061).
 * Shell commands are left out: what they wrote is measured by files (hooks/shell-delta.ts), and the
 * next edit tool's hook or `tandem blame` finds their lines unattributed.
 */
import { observeFile } from "../claims/line-authors.js";
import { type HookCtx, hookSession } from "./context.js";
import { plannedTargets } from "./gates/facts.js";
import { LINE_TOOLS } from "./line-claims.js";

export async function recordLineAuthors(ctx: HookCtx): Promise<void> {
  const tool = ctx.input.tool;
  if (!tool || !LINE_TOOLS.has(tool.name)) return;
  const author = hookSession(ctx).id;
  for (const t of await plannedTargets(ctx, tool)) {
    if (t.disposition !== "git") continue;
    try {
      observeFile(ctx.db, t.worktree, t.path, author, ctx.now);
    } catch {
      // Authors are a help, never a gate: a file that cannot be read now is read on its next write.
    }
  }
}
