import { errorMessage } from "../errors.js";
import { dbFile } from "../store/db.js";
import { storeErrorOf } from "../store/failure.js";
import { appendOne } from "../store/ledger/append.js";
import type { HookCtx } from "./context.js";

/**
 * An observational step of a hook failed: the hook goes on (fails open) and the failure is
 * recorded as `hook.error`. When the store refuses even that, the hook's own work meets the same
 * failure and reports the store's state. A held lock is not waited for a second time to record
 * that it was held (decision 0078): the step already waited the whole bound.
 */
export function recordOpenFailure(ctx: HookCtx, doing: string, err: unknown): void {
  if (storeErrorOf(err, dbFile(ctx.stateDir))?.problem === "locked") return;
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
