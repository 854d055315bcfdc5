/**
 * Tandem's own state is peers' work too (docs/safety-net.md "Protected paths", decision 0023): the
 * store directory (`<git common dir>/tandem/`, its ledger and blobs) is refused to agents when a
 * command names it, like the wiring is. Pure: the places arrive as physical paths.
 */
import type { RefusedTarget } from "../claims/decide.js";
import { isInside } from "../paths/lexical.js";

export const STATE_RULE = "tandem-state";

export interface StatePlaces {
  /** `<git common dir>/tandem`, physical. */
  store: string;
  /** The git common directory holding it (`.git`), physical. */
  commonDir: string;
}

/**
 * Targets that are the store or inside it, or a directory between the git common directory and the
 * store (`rm -rf .git` takes the store with it). Directories above the common directory (`.`, `..`)
 * are left to the claims: `cp a .` writes into them without touching the store.
 */
export function stateRefusals(
  targets: readonly { raw: string; physical: string }[],
  places: StatePlaces,
): RefusedTarget[] {
  const out: RefusedTarget[] = [];
  for (const t of targets) {
    const within = isInside(places.store, t.physical);
    const holds = isInside(places.commonDir, t.physical) && isInside(t.physical, places.store);
    if (!within && !holds) continue;
    const what = within ? "it is inside Tandem's store" : "it holds Tandem's store";
    out.push({
      raw: t.raw,
      rule: STATE_RULE,
      reason: `${what} (${places.store}: the ledger, the claims and the preserved copies of every agent's uncommitted work)`,
    });
  }
  return out;
}

/** The denial: what was named, why it matters, and what to do instead. */
export function stateMessage(refused: readonly RefusedTarget[], agentCmd: string): string {
  const lines = ["Tandem refused this command before it ran; nothing was changed."];
  for (const r of refused) lines.push(`- ${r.raw}: ${r.reason}`);
  lines.push(
    `What to do: leave Tandem's store to Tandem. To free space run \`${agentCmd} gc\`; to look at preserved copies run \`${agentCmd} recover --list\`; to check the store run \`${agentCmd} doctor\`. If the store really must go, ask the user to remove it themselves.`,
  );
  return lines.join("\n");
}
