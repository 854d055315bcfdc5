import { existsSync } from "node:fs";
import { join } from "node:path";
import { upkeepPlan } from "../core/upkeep/maintenance.js";
import { ensureReserve } from "../store/disk-reserve.js";
import { auditStore } from "../store/trust.js";
import { lastUpkeep, markUpkeep, storeBytes } from "../store/upkeep/stamp.js";
import type { HookCtx } from "./context.js";

/** The binary that runs this hook, when it runs from the bundle; tests importing sources have none. */
function tandemEntry(): string | null {
  if (typeof __dirname !== "string") return null;
  const entry = join(__dirname, "tandem.cjs");
  return existsSync(entry) ? entry : null;
}

/** Starts `tandem gc --auto` detached: the hook answers without waiting for it. */
function startBackground(ctx: HookCtx, entry: string): void {
  markUpkeep(ctx.stateDir, ctx.now);
  const { spawn } = process.getBuiltinModule("node:child_process");
  const child = spawn(process.execPath, [entry, "--root", ctx.root.root, "gc", "--auto"], {
    cwd: ctx.root.root,
    env: ctx.req.env,
    detached: true,
    stdio: "ignore",
  });
  // A start that fails after spawn returns arrives as an 'error' event, which unheard ends the
  // resident server. The next day's session start tries again.
  child.on("error", () => {});
  child.unref();
}

/**
 * Once per session start: the store's structural check inline when it is small, else
 * (and for `store.autoGc`) a background upkeep at most daily. Returns the damage found inline.
 */
export function sessionStartUpkeep(ctx: HookCtx): string | null {
  const limit = Number(ctx.req.env.TANDEM_INLINE_AUDIT_BYTES);
  const plan = upkeepPlan({
    storeBytes: storeBytes(ctx.stateDir),
    lastStarted: lastUpkeep(ctx.stateDir),
    autoGc: ctx.config.autoGc,
    now: ctx.now,
    ...(Number.isFinite(limit) && limit >= 0 ? { inlineLimit: limit } : {}),
  });
  // Room a full disk's `rm` needs to be judged (decision 0065), put back once there is space.
  ensureReserve(ctx.stateDir);
  const entry = plan.startBackground ? tandemEntry() : null;
  if (entry) startBackground(ctx, entry);
  return plan.auditInline ? auditStore(ctx.db) : null;
}
