/**
 * After an edit tool ran: what it changed in each shared file it names is its session's (decision 0061).
 * Shell commands are left out: what they wrote is measured by files (hooks/shell-delta.ts), and the
 * next edit tool's hook or `tandem blame` finds their lines unattributed.
 */
import { observeFile, tracked } from "../claims/line-authors.js";
import { lastPromptSeq } from "../store/events/reads.js";
import { write } from "../store/ledger/append.js";
import { type HookCtx, hookSession } from "./context.js";
import { plannedTargets } from "./gates/facts.js";
import { LINE_TOOLS } from "./line-claims.js";

export async function recordLineAuthors(ctx: HookCtx): Promise<void> {
  const tool = ctx.input.tool;
  if (!tool || !LINE_TOOLS.has(tool.name)) return;
  // The session may be recorded (or re-attached) here, which appends: inside the write lock.
  const author = write(ctx.db, (tx) => hookSession(ctx, tx), "gating").id;
  // The turn these lines belong to (decision 0074), read once and only for a shared file.
  let turn: number | null | undefined;
  for (const t of await plannedTargets(ctx, tool)) {
    // A file nobody shares costs no git here: its hunks are the holder's, credited when a peer
    // first meets it there (hooks/line-claims.ts) or blame, stage or undo first reads it.
    if (t.disposition !== "git" || !tracked(ctx.db, t.worktree, t.path)) continue;
    try {
      turn = turn === undefined ? lastPromptSeq(ctx.db, author) : turn;
      observeFile(ctx.db, t.worktree, t.path, author, ctx.now, turn);
    } catch {
      // Authors are a help, never a gate: a file that cannot be read now is read on its next write.
    }
  }
}
