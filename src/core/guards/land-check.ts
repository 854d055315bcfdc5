/**
 * `land.check` and `TANDEM_LAND_CHECK` judged as the lander's own shell command (issue 37.6):
 * which files it names that live peers hold, and the refusal the lander reads. Pure; the facts
 * come from hooks/land-check-guard.ts.
 */
import type { Holder } from "../claims/decide.js";

export interface PeerHit {
  /** Relative to the coordination root. */
  path: string;
  holder: Holder;
}

/**
 * The command's write targets (keys relative to the root; null: outside it) that a peer owns, or
 * that hold a path a peer owns (`rm -r dir`).
 */
export function peerHits(
  targets: readonly (string | null)[],
  owners: ReadonlyMap<string, Holder>,
): PeerHit[] {
  const hits: PeerHit[] = [];
  for (const t of targets) {
    if (t === null) continue;
    for (const [path, holder] of owners) {
      if (path === t || t === "." || path.startsWith(`${t}/`)) hits.push({ path, holder });
    }
  }
  return hits;
}

/** The lander's message: the check did not run, why, and what to change. */
export function landCheckRefusal(
  command: string,
  hits: readonly PeerHit[],
  gitMessage: string | null,
): string {
  const lines = [
    `tandem land: the land check \`${command}\` was refused before it ran, as the lander's own command would be.`,
  ];
  if (hits.length > 0) {
    lines.push("It writes or removes files other live sessions hold:");
    for (const h of hits) lines.push(`- ${h.path}: ${h.holder.name} (${h.holder.client})`);
  }
  if (gitMessage) lines.push(gitMessage);
  lines.push(
    "What to do: make land.check (.tandem/config.jsonc, or TANDEM_LAND_CHECK) work only in its own directory ($TANDEM_LAND_CHECK_DIR), not on the shared checkout, or wait until those sessions commit; nothing was pushed.",
  );
  return lines.join("\n");
}
