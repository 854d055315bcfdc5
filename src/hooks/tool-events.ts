import { ALLOW, type Verdict } from "../clients/types.js";
import { append, write } from "../store/ledger.js";
import { SHELL_TOOLS } from "../targets/tool-targets.js";
import { type HookCtx, hookSession } from "./context.js";
import { recordShellDelta } from "./shell-delta.js";

/**
 * post-tool-use: record completion; for shell tools, what the command actually
 * changed. A changed file a live peer holds earns a warning, never a block.
 */
export function onPostTool(ctx: HookCtx): Verdict {
  const tool = ctx.input.tool;
  if (!tool) return ALLOW;
  write(ctx.db, () => {
    const session = hookSession(ctx);
    append(ctx.db, {
      kind: "tool.completed",
      session: session.id,
      ts: ctx.now,
      data: { tool: tool.name, toolUseId: tool.useId },
    });
  });
  // The name alone says it is a shell: re-parsing the command here loaded the shell parser for nothing.
  if (!SHELL_TOOLS.has(tool.name)) return ALLOW;
  const delta = recordShellDelta(ctx, tool);
  if (!delta || delta.peerHeld.length === 0) return ALLOW;
  const list = delta.peerHeld.map((p) => `${p.path} (held by ${p.holder})`).join(", ");
  return {
    ...ALLOW,
    context: `Tandem warning: that command changed files another live agent holds: ${list}. Do not commit them as your own; coordinate with their holder.`,
  };
}
