import { errorMessage } from "../errors.js";
import { appendOne } from "../store/ledger/append.js";
import type { HookCtx } from "./context.js";

/**
 * An observational step of a hook failed: the hook goes on (fails open) and the failure is
 * recorded as `hook.error`. When the store refuses even that, the hook's own work meets the same
 * failure and reports the store's state.
 */
export function recordOpenFailure(ctx: HookCtx, doing: string, err: unknown): void {
  try {
    appendOne(ctx.db, {
      kind: "hook.error",
      session: null,
      data: {
        client: ctx.client.name,
        event: ctx.input.event,
        message: `${doing}: ${errorMessage(err)}`,
        failed: "open",
      },
    });
  } catch {
    // See above: nothing more to do here.
  }
}
