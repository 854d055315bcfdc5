import type { Config } from "../config/schema.js";
import type { Printer } from "../core/printed.js";
import { parseLeases } from "../core/remote/leases.js";
import { type RemoteView, remoteView } from "../core/remote/remote-view.js";
import type { Db } from "../store/db.js";
import { remoteLeasesRow, remotePresenceDocs, remoteSyncState } from "../store/remote/rows.js";
import { mayHaveRemote } from "./background.js";
import { knownCheckout } from "./checkout.js";
import { engineConfigured, presenceLifeMs } from "./presence-life.js";

/**
 * Reads what the last sync round stored for `tandem status`, `watch` and `doctor`. No git process
 * and no network: the tables, the checkout's id file and the repository's config file, so a board
 * can read it every second.
 */
export function readRemoteView(
  db: Db | null,
  o: { stateDir: string; config: Config; now: number; printer: Printer },
): RemoteView {
  const c = o.config;
  const sync = db ? remoteSyncState(db) : null;
  const leasesText = db ? (remoteLeasesRow(db)?.doc ?? null) : null;
  return remoteView({
    enabled: c.remoteEnabled,
    hasRemote: engineConfigured(c, () => mayHaveRemote(o.stateDir, c.remoteName)),
    docs: db ? remotePresenceDocs(db) : [],
    leases: leasesText ? (parseLeases(leasesText)?.leases ?? []) : [],
    sync: sync && {
      remote: sync.remote,
      lastAttempt: sync.last_attempt,
      lastSuccess: sync.last_success,
      lastError: sync.last_error,
    },
    self: knownCheckout(o.stateDir)?.id ?? null,
    now: o.now,
    intervalMs: c.remoteIntervalSeconds * 1000,
    fresh: { sessionMs: c.freshnessSeconds * 1000, documentMs: presenceLifeMs(c) },
    printer: o.printer,
  });
}
