import { join } from "node:path";
import { findLeftWork } from "../claims/left-work.js";
import { livePeers } from "../claims/live-peers.js";
import { ownedDirty } from "../claims/owned-dirty.js";
import { type ConfigProblem, shortConfigProblem } from "../config/problems.js";
import type { Config } from "../config/schema.js";
import { staleHolders } from "../core/claims/gone-verdict.js";
import type { LeftItem } from "../core/claims/left-work.js";
import { plural } from "../core/plural.js";
import { type Printer, spanned } from "../core/printed.js";
import type { StatusModel } from "../core/ritual/status-box.js";
import { guardOf } from "../sessions/guard.js";
import { type SessionView, sessionViews } from "../sessions/view.js";
import { allClaims, claimedPaths } from "../store/claims/rows.js";
import type { Db } from "../store/db.js";
import { eventTs, hookErrorsAfterSeq } from "../store/events/reads.js";
import type { SessionRow } from "../store/sessions/rows.js";
import { subagentRows } from "../subagents/lifecycle/rows.js";

function startedAt(db: Db, s: SessionRow): number {
  return eventTs(db, s.started_seq) ?? s.last_seen;
}

function warnings(
  db: Db,
  s: SessionRow,
  config: Config,
  views: readonly SessionView[],
  gone: { left: readonly LeftItem[]; root: string },
  p: Printer,
): string[] {
  const out: string[] = [];
  // A gone session's left work is listed under `left`; only its other claims are stale.
  const claims = allClaims(db).map((c) => ({ session: c.session_id, worktree: c.worktree, path: c.path }));
  for (const { session: v, claims: n } of staleHolders(views, claims, gone.left, gone.root))
    out.push(`${v.name} is stale and holds ${plural(n, "claim")}; they no longer block`);
  const errors = hookErrorsAfterSeq(db, s.started_seq);
  if (errors > 0)
    out.push(
      `${errors} hook error(s) since this session started; see ${spanned(p, "events", "--kind", "hook.error")}`,
    );
  if (config.stopRitual !== "enforce") out.push(`stop ritual is "${config.stopRitual}"`);
  return out;
}

/** One short row per config problem; the full messages follow the box. */
function configWarnings(problems: readonly ConfigProblem[], root: string): string[] {
  return problems.map((p) => shortConfigProblem(p, root));
}

export function statusModel(
  db: Db,
  s: SessionRow,
  ctx: {
    root: string;
    repoTop: string | null;
    config: Config;
    configProblems: readonly ConfigProblem[];
    endTurn: boolean;
    /** How the box spells commands for whoever reads it (decision 0051). */
    printer: Printer;
  },
): StatusModel {
  const now = Date.now();
  const held = claimedPaths(db, s.id);
  const claims = held.map((c) => (c.worktree === ctx.root ? c.path : join(c.worktree, c.path)));
  const views = sessionViews(db, ctx.config.freshnessSeconds, now);
  const left = findLeftWork(db, {
    worktree: ctx.root,
    repoTop: ctx.repoTop,
    now,
    freshnessSeconds: ctx.config.freshnessSeconds,
  }).left;
  // The same rows as `tandem watch`: how each child ended, what was captured, where it was applied.
  const subagents = subagentRows(db, views)
    .filter((r) => r.parent === s.name)
    .map((r) => ({ name: r.name, state: `${r.state}; ${r.capture}; ${r.apply}` }));
  return {
    session: {
      name: s.name,
      client: s.client,
      startedAt: startedAt(db, s),
      task: s.task,
      activity: s.activity,
      guard: guardOf({ client: s.client, agentPid: s.agent_pid }, ctx.config.guard),
    },
    claims,
    // A passed end-turn check just proved every owned path clean: nothing awaits finalization.
    awaiting: ctx.endTurn
      ? []
      : ownedDirty(
          db,
          s.id,
          ctx.root,
          ctx.repoTop,
          held.filter((c) => c.worktree === ctx.root).map((c) => c.path),
        ),
    // Filled in from the end-turn check's findings once it has run.
    ignored: [],
    peers: livePeers(db, s.id, ctx.config.freshnessSeconds, now, views).map((p) => ({
      ...p,
      claims: p.claims.length,
      guard: guardOf(views.find((v) => v.name === p.name) ?? p, ctx.config.guard),
    })),
    subagents,
    left,
    warnings: [
      ...configWarnings(ctx.configProblems, ctx.root),
      ...warnings(db, s, ctx.config, views, { left, root: ctx.root }, ctx.printer),
    ],
    endTurn: ctx.endTurn,
    printer: ctx.printer,
    now,
  };
}
