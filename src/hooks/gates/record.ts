/** A refusal decided before any claim, recorded as the claims gate records its own: request, then denial. */
import type { ToolCall } from "../../clients/types.js";
import { inputDigest } from "../../core/digest.js";
import { append, write } from "../../store/ledger/append.js";
import { type HookCtx, hookSession } from "../context.js";
import type { RefusedRow } from "./gate.js";

export function recordRefusal(
  ctx: HookCtx,
  tool: ToolCall,
  raws: readonly string[],
  refused: readonly RefusedRow[],
): void {
  write(
    ctx.db,
    (tx) => {
      const session = hookSession(ctx, tx);
      const base = { session: session.id, ts: ctx.now };
      append(tx, {
        ...base,
        kind: "tool.requested",
        data: { tool: tool.name, toolUseId: tool.useId, targets: [...raws], ...inputDigest(tool.input) },
      });
      append(tx, { ...base, kind: "claim.denied", data: { tool: tool.name, refused: [...refused] } });
    },
    "gating",
  );
}
