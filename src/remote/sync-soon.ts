import { errorMessage } from "../errors.js";
import { logFailure } from "../store/failure-log.js";
import { bundledEntry } from "../version.js";
import { startBackgroundSync } from "./background.js";
import type { SyncHookCtx } from "./hook-ctx.js";
import { engineConfigured } from "./presence-life.js";

/**
 * Keeps this checkout's presence on the remote current (docs/decisions/0014): `force` when a
 * claim was taken or a session started or ended, else at most every `remote.intervalSeconds`. A
 * detached round does the network work; the hook never waits on it and never fails for it, and
 * starts it after its answer is written when the caller allows (`req.later`).
 */
export function syncSoon(ctx: SyncHookCtx, force: boolean): void {
  if (!ctx.config.remoteEnabled || !ctx.root.repo) return;
  const start = () => startRound(ctx, force);
  if (ctx.req.later) ctx.req.later(start);
  else start();
}

function startRound(ctx: SyncHookCtx, force: boolean): void {
  try {
    startBackgroundSync({
      entry: bundledEntry(),
      root: ctx.root.root,
      stateDir: ctx.stateDir,
      env: ctx.req.env,
      now: ctx.now,
      enabled: true,
      remoteName: ctx.config.remoteName,
      viaNats: engineConfigured(ctx.config, () => false),
      intervalSeconds: ctx.config.remoteIntervalSeconds,
      force,
    });
  } catch (err) {
    // The answer may be sent and the store connection returned: the log beside the store.
    logFailure(ctx.stateDir, {
      ts: new Date().toISOString(),
      source: `hook ${ctx.client.name} ${ctx.input.event}`,
      session: ctx.input.sessionId,
      failed: "open",
      problem: "error",
      message: `starting a remote sync: ${errorMessage(err)}`,
    });
  }
}
