import { errorMessage } from "../errors.js";
import { startBackgroundSync } from "../remote/background.js";
import { bundledEntry } from "../resident/on-demand.js";
import { appendOne } from "../store/ledger.js";
import type { HookCtx } from "./context.js";

/**
 * Keeps this checkout's presence on the remote current (docs/decisions/0014): `force` when a
 * claim was taken or a session started or ended, else at most every `remote.intervalSeconds`. A
 * detached round does the network work; the hook never waits on it and never fails for it.
 */
export function syncSoon(ctx: HookCtx, force: boolean): void {
  if (!ctx.config.remoteEnabled || !ctx.root.repo) return;
  try {
    startBackgroundSync({
      entry: bundledEntry(),
      root: ctx.root.root,
      stateDir: ctx.stateDir,
      env: ctx.req.env,
      now: ctx.now,
      enabled: true,
      remoteName: ctx.config.remoteName,
      intervalSeconds: ctx.config.remoteIntervalSeconds,
      force,
    });
  } catch (err) {
    appendOne(ctx.db, {
      kind: "hook.error",
      session: null,
      data: {
        client: ctx.client.name,
        event: ctx.input.event,
        message: `starting a remote sync: ${errorMessage(err)}`,
        failed: "open",
      },
    });
  }
}
