import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { leasesDocOf } from "../core/remote/kv-leases.js";
import { liveDocs, NOTHING_SEEN, type PresenceSeen, parseSeen } from "../core/remote/kv-presence.js";
import { leasesText } from "../core/remote/leases.js";
import type { SyncStage } from "../core/remote/sync-plan.js";
import type { Db } from "../store/db.js";
import type { RoundRecord } from "../store/remote/rows.js";
import { checkoutIdentity } from "./checkout.js";
import { allLeases } from "./nats/kv.js";
import { type NatsLink, NatsLinkError, openNats } from "./nats/link.js";
import { exchangePresence } from "./nats/presence.js";
import { dropExpired } from "./nats-leases.js";
import { natsSettings, shownUrl } from "./nats-settings.js";
import { buildPresence } from "./presence-doc.js";
import { recordResult, type SyncOptions, type SyncResult } from "./sync.js";

/** What this checkout has read of the presence bucket, kept between rounds: the next reads only what changed. */
const CACHE_FILE = "nats-presence.json";

function readCache(stateDir: string): PresenceSeen {
  try {
    return parseSeen(readFileSync(join(stateDir, CACHE_FILE), "utf8")) ?? NOTHING_SEEN;
  } catch {
    return NOTHING_SEEN;
  }
}

function writeCache(stateDir: string, cache: PresenceSeen): void {
  const file = join(stateDir, CACHE_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(cache));
  renameSync(tmp, file);
}

class Stage extends Error {
  constructor(
    readonly stage: SyncStage,
    message: string,
    readonly fix: string,
  ) {
    super(message);
  }
}

/**
 * One sync round over NATS (decision 0063): the presence that changed since the last round, this
 * checkout's document put when it changed and its alive mark refreshed (src/remote/nats/presence.ts),
 * and the live leases; stored in the same tables the git engine fills, so hooks, status and the board read
 * them alike. Never throws: a failure is recorded in `remote_sync` with its fix.
 */
export async function natsRound(db: Db, opts: SyncOptions): Promise<SyncResult> {
  const now = opts.now ?? Date.now;
  const started = now();
  const c = opts.config;
  const result: SyncResult = {
    ok: false,
    remote: c.natsUrl ? shownUrl(c.natsUrl) : null,
    seen: [],
    leases: null,
    published: false,
    republished: [],
    republishLost: [],
    pruned: [],
    error: null,
    ms: 0,
  };
  let read: RoundRecord["read"] = null;
  let link: NatsLink | null = null;
  try {
    const s = natsSettings(c, opts.top);
    if (!s.ok) throw new Stage("remote", s.problem, s.fix);
    link = await open(s.settings);
    const me = checkoutIdentity(opts.stateDir, opts.top);
    const mine = buildPresence(db, {
      checkout: me,
      root: opts.root,
      freshnessSeconds: c.freshnessSeconds,
      now: now(),
    });
    const ex = await exchangePresence(link, readCache(opts.stateDir), mine, {
      ttlMs: s.settings.presenceTtlMs,
      now,
    });
    result.published = ex.published;
    writeCache(opts.stateDir, ex.seen);
    const docs = liveDocs(ex.seen);
    const leases = await dropExpired(link, await allLeases(link.leases), now());
    const doc = leasesDocOf(leases, now());
    const newest = Math.max(0, ...leases.map((l) => l.revision));
    read = { presence: docs, leases: { text: leasesText(doc), commit: `nats:${newest}` } };
    result.seen = docs
      .filter((d) => d.checkout.id !== me.id)
      .map((d) => ({ id: d.checkout.id, name: d.checkout.name, published: d.published }));
    result.leases = doc;
    result.ok = true;
  } catch (err) {
    const stage = err instanceof Stage ? err.stage : "fetch";
    const fix =
      err instanceof Stage
        ? err.fix
        : `check that the NATS server at ${result.remote ?? "remote.nats.url"} runs with JetStream and is reachable (\`${opts.doctor}\` tries it), or set remote.engine to "git".`;
    result.error = { stage, message: (err as Error).message, fix };
  } finally {
    await link?.close().catch(() => {});
  }
  result.ms = now() - started;
  return recordResult(db, read, result, started, opts.doctor);
}

async function open(s: Parameters<typeof openNats>[0]): Promise<NatsLink> {
  try {
    return await openNats(s);
  } catch (err) {
    if (!(err instanceof NatsLinkError)) throw err;
    throw new Stage(
      "fetch",
      err.message,
      'start the NATS server with JetStream (`nats-server -js`), check TANDEM_NATS_URL / remote.nats.url and TANDEM_NATS_CREDS, or set remote.engine to "git".',
    );
  }
}
