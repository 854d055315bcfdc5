import { join, relative } from "node:path";
import { loadHeld } from "../claims/holders.js";
import { peerOwned } from "../claims/peer-owned.js";
import type { PathHolders } from "../core/land/plan.js";
import type { Db } from "../store/db.js";

/**
 * Who holds each path of the repository, keyed relative to its top: live sessions' claims, and
 * files live sessions changed through their own commands. `self` is labelled so a lander is told
 * when the work in the way is its own.
 */
export function pathHolders(
  db: Db,
  q: { top: string; root: string; self: string | null; now: number; freshnessSeconds: number },
): Map<string, PathHolders> {
  const out = new Map<string, { claimed: string[]; touched: string[] }>();
  const add = (abs: string, id: string, name: string, how: "claimed" | "touched") => {
    const rel = relative(q.top, abs);
    if (rel === "" || rel.startsWith("..")) return;
    const label = id === q.self ? `${name} (you)` : name;
    const entry = out.get(rel) ?? { claimed: [], touched: [] };
    if (!entry[how].includes(label)) entry[how].push(label);
    out.set(rel, entry);
  };
  for (const c of loadHeld(db, q.now, q.freshnessSeconds))
    if (c.holder.live) add(join(c.worktree, c.path), c.holder.id, c.holder.name, "claimed");
  // No caller group: every live session counts, the lander's own included.
  const touched = peerOwned(db, {
    worktree: q.root,
    self: "",
    group: "",
    now: q.now,
    freshnessSeconds: q.freshnessSeconds,
  });
  for (const [path, h] of touched) add(join(q.root, path), h.id, h.name, "touched");
  return out;
}
