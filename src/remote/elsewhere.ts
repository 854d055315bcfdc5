import { PLAIN } from "../core/printed.js";
import { elsewhereLines } from "../core/remote/elsewhere.js";
import type { RemoteHookCtx } from "./hook-ctx.js";
import { readRemoteView } from "./view-data.js";

/** "Agents elsewhere: …" for a starting session, from the last sync (the views' reading); null when none. */
export function elsewhereContext(ctx: RemoteHookCtx): string | null {
  if (!ctx.root.repo) return null;
  // Only sessions and leases are told, which spell no command: no launcher is read for them.
  const view = readRemoteView(ctx.db, {
    stateDir: ctx.stateDir,
    config: ctx.config,
    now: ctx.now,
    printer: PLAIN,
  });
  const others = view.leases.filter((l) => !l.mine);
  const lines = elsewhereLines(view.sessions, others, "", ctx.now);
  if (lines.length === 0) return null;
  return ["Agents in other checkouts of this repository (as of the last sync):", ...lines].join("\n");
}
