import { formatAge } from "../../core/sessions/liveness.js";
import type { SyncResult } from "../../remote/sync.js";

/** `tandem sync` for people: what was fetched, published and pruned, or what failed and the fix. */
export function formatSync(r: SyncResult, now: number): string {
  const lines: string[] = [];
  if (r.error && r.seen.length === 0 && !r.published) {
    lines.push(
      `tandem sync: failed${r.remote ? ` with ${r.remote}` : ""} (${r.error.stage}): ${r.error.message}`,
    );
    lines.push(`Fix: ${r.error.fix}`);
    return `${lines.join("\n")}\n`;
  }
  lines.push(`Synced with ${r.remote} in ${r.ms} ms.`);
  lines.push(
    r.seen.length === 0
      ? "No other checkout publishes presence there."
      : `Presence of ${r.seen.length} other checkout(s):`,
  );
  for (const s of r.seen) lines.push(`  ${s.name} (as of ${formatAge(Math.max(0, now - s.published))} ago)`);
  const leases = r.leases?.leases.length ?? 0;
  lines.push(r.leases ? `${leases} lease(s) on the remote.` : "No leases on the remote.");
  lines.push(
    r.published
      ? "Published this checkout's presence."
      : "This checkout's presence is unchanged: not published.",
  );
  if (r.republished.length > 0)
    lines.push(
      `The remote had lost this checkout's reservations (its refs/tandem/lease/* refs deleted or rewritten); put back: ${r.republished.join(", ")}.`,
    );
  if (r.republishLost.length > 0)
    lines.push(
      `Reservations another clone took while they were missing from the remote: ${r.republishLost.join(", ")}; they are no longer this checkout's.`,
    );
  for (const p of r.pruned) lines.push(`Pruned ${p.name} (${p.id}).`);
  if (r.error) {
    lines.push(`Failed (${r.error.stage}): ${r.error.message}`);
    lines.push(`Fix: ${r.error.fix}`);
  }
  return `${lines.join("\n")}\n`;
}
