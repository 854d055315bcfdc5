import type { Config } from "../config/schema.js";
import type { Holder, LeaseRequest } from "../core/remote/leases.js";
import type { Db } from "../store/db.js";
import type { NatsLeaseResult } from "./nats-leases.js";
import { natsSettings, shownUrl } from "./nats-settings.js";
import { type SyncOptions, type SyncResult, syncRound } from "./sync.js";

/**
 * Which engine carries presence and leases (`remote.engine`, decision 0063), behind one seam for
 * the commands. The NATS side is loaded only here, by a dynamic import, when the engine is "nats":
 * hooks never reach this file (they read the tables and start `tandem sync --background`).
 */

export const usesNats = (c: Config): boolean => c.remoteEngine === "nats";

/** One sync round with the configured engine. */
export async function syncWithEngine(db: Db, opts: SyncOptions): Promise<SyncResult> {
  if (!usesNats(opts.config)) return syncRound(db, opts);
  const { natsRound } = await import("./nats-round.js");
  return natsRound(db, opts);
}

type Settled = NatsLeaseResult | { ok: false; message: string };

function settingsOr(config: Config, top: string) {
  const s = natsSettings(config, top);
  return s.ok ? s.settings : ({ ok: false, message: `${s.problem}; ${s.fix}` } as const);
}

/** A reservation over NATS; the git engine's is src/remote/leases.ts. */
export async function natsReserveAt(config: Config, top: string, req: LeaseRequest): Promise<Settled> {
  const s = settingsOr(config, top);
  if ("ok" in s) return s;
  const { natsReserve } = await import("./nats-leases.js");
  return natsReserve(s, req);
}

export async function natsReleaseAt(
  config: Config,
  top: string,
  holder: Holder,
  paths: string[],
): Promise<Settled> {
  const s = settingsOr(config, top);
  if ("ok" in s) return s;
  const { natsRelease } = await import("./nats-leases.js");
  return natsRelease(s, holder, paths);
}

export interface EngineCheck {
  ok: boolean;
  detail: string;
  fix: string | null;
}

/** Which engine is in force and, for NATS, whether its server answers with JetStream: `tandem doctor`. */
export async function checkEngine(config: Config, top: string | null): Promise<EngineCheck> {
  if (!usesNats(config))
    return { ok: true, detail: "git: presence and reservations travel as refs on the Git remote", fix: null };
  if (!top)
    return { ok: false, detail: "nats, outside a git repository", fix: "run doctor inside the repository." };
  const s = natsSettings(config, top);
  if (!s.ok) return { ok: false, detail: `nats: ${s.problem}`, fix: s.fix };
  const { openNats } = await import("./nats/link.js");
  try {
    const link = await openNats(s.settings);
    await link.close();
    return {
      ok: true,
      detail: `nats at ${shownUrl(s.settings.url)} (server ${link.server}), buckets ${s.settings.bucket}-presence, -alive and -leases`,
      fix: null,
    };
  } catch (err) {
    return {
      ok: false,
      detail: `nats: ${(err as Error).message}`,
      fix: 'start the NATS server with JetStream (`nats-server -js`), check TANDEM_NATS_URL / remote.nats.url and TANDEM_NATS_CREDS, or set remote.engine to "git".',
    };
  }
}
