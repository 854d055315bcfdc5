import { elsewhereLines, elsewhereSessions, liveLeases } from "../core/remote/elsewhere.js";
import { parseLeases } from "../core/remote/leases.js";
import { checkoutIdentity } from "../remote/checkout.js";
import { remoteLeasesRow, remotePresenceDocs } from "../store/remote.js";
import type { HookCtx } from "./context.js";

/** "Agents elsewhere: …" for a starting session, from the last sync's documents; null when none. */
export function elsewhereContext(ctx: HookCtx): string | null {
  if (!ctx.config.remoteEnabled || !ctx.root.repo) return null;
  const docs = remotePresenceDocs(ctx.db);
  const leasesText = remoteLeasesRow(ctx.db)?.doc ?? null;
  const leases = leasesText ? liveLeases(parseLeases(leasesText)?.leases ?? [], ctx.now) : [];
  if (docs.length === 0 && leases.length === 0) return null;
  const self = checkoutIdentity(ctx.stateDir, ctx.root.repo.top).id;
  const fresh = {
    sessionMs: ctx.config.freshnessSeconds * 1000,
    documentMs: ctx.config.remotePresenceTtlMinutes * 60_000,
  };
  const lines = elsewhereLines(elsewhereSessions(docs, self, ctx.now, fresh), leases, self, ctx.now);
  if (lines.length === 0) return null;
  return ["Agents in other checkouts of this repository (as of the last sync):", ...lines].join("\n");
}
