import { relative, sep } from "node:path";
import { PLAIN } from "../core/printed.js";
import { type LocalSide, leaseHolders, presenceHolders, type RemoteHolder } from "../core/remote/holders.js";
import { parseLeases } from "../core/remote/leases.js";
import { type RemoteVerdict, remoteVerdict } from "../core/remote/verdict.js";
import { remoteLeasesRow, remotePresenceDocs } from "../store/remote/rows.js";
import { printerOf } from "../wiring/agent-shell.js";
import type { RemoteHookCtx } from "./hook-ctx.js";
import { localSide } from "./local-side.js";
import { presenceLifeMs } from "./presence-life.js";

/** The targets' paths relative to the repository's top, the form presence documents use. */
function repoPaths(ctx: RemoteHookCtx, physical: readonly string[]): string[] {
  const top = ctx.root.repo?.top;
  if (!top) return [];
  return physical
    .map((p) => relative(top, p))
    .filter((r) => r !== "" && !r.startsWith("..") && !r.startsWith(sep))
    .map((r) => r.split(sep).join("/"));
}

/**
 * What other checkouts hold among the paths a write touches (docs/decisions/0014), read from the
 * store's copy of the remote's documents: no network and no git process on the hook's path.
 */
export function remoteHoldersOf(ctx: RemoteHookCtx, physical: readonly string[]): RemoteHolder[] {
  if (!ctx.config.remoteEnabled || !ctx.root.repo) return [];
  const paths = repoPaths(ctx, physical);
  if (paths.length === 0) return [];
  const docs = remotePresenceDocs(ctx.db);
  const leasesText = remoteLeasesRow(ctx.db)?.doc ?? null;
  const leases = leasesText ? (parseLeases(leasesText)?.leases ?? []) : [];
  if (docs.length === 0 && leases.length === 0) return [];
  const local: LocalSide = localSide(ctx.stateDir, ctx.root.repo, ctx.config.remoteTargetBranches);
  const fresh = {
    sessionMs: ctx.config.freshnessSeconds * 1000,
    documentMs: presenceLifeMs(ctx.config),
  };
  return [
    ...leaseHolders(paths, leases, local, ctx.now),
    ...presenceHolders(paths, docs, local, ctx.now, fresh),
  ];
}

export function remoteGate(ctx: RemoteHookCtx, physical: readonly string[]): RemoteVerdict {
  const holders = remoteHoldersOf(ctx, physical);
  // The agent reads the answer: its launcher spells the commands (read only when one is printed).
  const printer = holders.length > 0 ? printerOf(ctx.root.root, ctx.stateDir, "agent") : PLAIN;
  return remoteVerdict(holders, ctx.config.remoteClaims, ctx.now, printer);
}
