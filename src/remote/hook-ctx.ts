import type { ClientName } from "../clients/index.js";
import type { ClientSpec, HookInput } from "../clients/types.js";
import type { ResolvedRoot } from "../config/root.js";
import type { Config } from "../config/schema.js";
import type { Db } from "../store/db.js";

/**
 * What the remote feature reads of a hook's context. The hooks sit above the features
 * (docs/layers.txt), so their `HookCtx` (hooks/context.ts) cannot be imported here; it has every
 * field below, and a hook passes its own context as it is.
 */
export interface RemoteHookCtx {
  root: Pick<ResolvedRoot, "root" | "repo">;
  config: Config;
  stateDir: string;
  db: Db;
  now: number;
}

/** And what starting a background round needs: who asked (for the failure log), and when to start. */
export interface SyncHookCtx extends RemoteHookCtx {
  client: Pick<ClientSpec<ClientName>, "name">;
  input: Pick<HookInput, "event" | "sessionId">;
  req: {
    env: Readonly<Record<string, string | undefined>>;
    /** Runs work after the hook's answer is written; without it the work runs at once. */
    later?: (task: () => void) => void;
  };
}
