import { healWiring } from "../wiring/heal.js";
import type { HookCtx } from "./context.js";
import { selfSession } from "./context.js";
import { recordOpenFailure } from "./open-failure.js";

/**
 * Every hook, before its own work: puts back Tandem's wiring entries if anything but init/deinit
 * changed them (docs/decisions/0024). Observational: a failure is recorded and the hook goes on.
 */
export function healWiringOf(ctx: HookCtx): void {
  try {
    healWiring(ctx.db, ctx.stateDir, {
      via: "hook",
      foundBy: () => selfSession(ctx)?.id ?? null,
    });
  } catch (err) {
    recordOpenFailure(ctx, "checking Tandem's wiring failed", err);
  }
}
