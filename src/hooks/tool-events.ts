import { ALLOW, type Verdict } from "../clients/types.js";
import { actorWarning } from "../core/safety/clobber.js";
import { append, write } from "../store/ledger/append.js";
import { SHELL_TOOLS } from "../targets/tool-targets.js";
import { agentPrinter, type HookCtx, hookSession } from "./context.js";
import { kernelTold } from "./kernel-told.js";
import { recordLineAuthors } from "./line-authors.js";
import { type OwnKeys, toolKeys, watchOwnedWork } from "./owner-watch.js";
import { takeOwnerNotice } from "./safety-net.js";
import { type Attribution, recordShellDelta, startShellDelta } from "./shell-delta.js";
import { turnBrief } from "./turn-brief.js";

/**
 * post-tool-use: record completion; for shell tools, what the command actually
 * changed. A changed file a live peer holds earns a warning, never a block; a
 * peer's uncommitted file it overwrote is recorded for recovery. The session is
 * also told here when a peer overwrote its own work.
 */
export async function onPostTool(ctx: HookCtx): Promise<Verdict> {
  const tool = ctx.input.tool;
  if (!tool) return ALLOW;
  // The name alone says it is a shell: re-parsing the command here loaded the shell parser for nothing.
  const shell = SHELL_TOOLS.has(tool.name);
  const pending = shell ? startShellDelta(ctx, tool) : null;
  const told = write(
    ctx.db,
    (tx) => {
      const session = hookSession(ctx, tx);
      const brief = turnBrief(ctx, session);
      append(tx, {
        kind: "tool.completed",
        session: session.id,
        ts: ctx.now,
        data: { tool: tool.name, toolUseId: tool.useId },
      });
      return [brief, takeOwnerNotice(ctx, tx, session)];
    },
    "gating",
  );
  const parts = told.filter((t): t is string => t !== null);
  if (!shell) await recordLineAuthors(ctx);
  const delta = pending ? await recordShellDelta(ctx, pending) : null;
  if (delta) parts.push(...shellWarnings(ctx, delta));
  const kernel = shell ? kernelTold(ctx, tool) : null;
  if (kernel) parts.push(kernel);
  // After the delta, so a clobber the command's own delta saw is recorded once, by it.
  const own: OwnKeys = shell
    ? delta
      ? new Set([...delta.mine, ...delta.unattributed])
      : "all"
    : await toolKeys(ctx);
  // A file tool's own target is compared with what the call meant (issue 37.1).
  if (watchOwnedWork(ctx, own, !shell)) {
    const late = write(ctx.db, (tx) => takeOwnerNotice(ctx, tx, hookSession(ctx, tx)), "gating");
    if (late) parts.push(late);
  }
  return parts.length === 0 ? ALLOW : { ...ALLOW, context: parts.join("\n\n") };
}

function shellWarnings(ctx: HookCtx, delta: Attribution): string[] {
  const out: string[] = [];
  if (delta.clobbered.length > 0) out.push(actorWarning(delta.clobbered, agentPrinter(ctx)));
  const clobbered = new Set(delta.clobbered.map((c) => c.key));
  const held = delta.peerHeld.filter((p) => !clobbered.has(p.path));
  if (held.length > 0) {
    const list = held.map((p) => `${p.path} (held by ${p.holder})`).join(", ");
    out.push(
      `Tandem warning: that command changed files another live agent holds: ${list}. Do not commit them as your own; coordinate with their holder.`,
    );
  }
  return out;
}
