import { errorMessage } from "../errors.js";
import { healWiring } from "../init/heal.js";
import { appendOne } from "../store/ledger.js";
import { sessionByNative } from "../store/queries.js";
import type { HookCtx } from "./context.js";

/**
 * Every hook, before its own work: puts back Tandem's wiring entries if anything but init/deinit
 * changed them (docs/decisions/0024). Observational: a failure is recorded and the hook goes on.
 */
export function healWiringOf(ctx: HookCtx): void {
  try {
    healWiring(ctx.db, ctx.stateDir, {
      via: "hook",
      foundBy: () => sessionByNative(ctx.db, ctx.client.name, ctx.input.sessionId)?.id ?? null,
    });
  } catch (err) {
    try {
      appendOne(ctx.db, {
        kind: "hook.error",
        session: null,
        data: {
          client: ctx.client.name,
          event: ctx.input.event,
          message: `checking Tandem's wiring failed: ${errorMessage(err)}`,
          failed: "open",
        },
      });
    } catch {
      // The store refuses even that: the hook's own work reports the store's state.
    }
  }
}
