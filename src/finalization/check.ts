/**
 * `tandem status --end-turn` (docs/product.md §5): proves the session's own Git work is committed and
 * pushed. Scope and classification (scope.ts) and Git facts (facts.ts) are gathered here; the
 * verdict is core/finalization/verdict.ts.
 */
import type { Config } from "../config/schema.js";
import { contestedPaths } from "../core/finalization/owned.js";
import { evaluate, type Findings, passed } from "../core/finalization/verdict.js";
import { resolveRoots } from "../core/paths/roots.js";
import { DirListings } from "../facts/dir-listing.js";
import { gatherRootFacts } from "../facts/root-facts.js";
import type { Db } from "../store/db.js";
import { sessionStartTs } from "../store/events/reads.js";
import { startEarly } from "./early-status.js";
import { gatherGitFacts, gatherStashes, gitAuthority } from "./facts.js";
import { ownedAbove, peerPathsWithin } from "./peer-paths.js";
import { classifyScope, createdStashes, ownedPaths } from "./scope.js";
import { gatherUnreached } from "./unreached-scope.js";

export interface EndTurnContext {
  /** The coordination root (physical). */
  root: string;
  /** Top of the working tree holding the root, as discovery found it; null outside Git. */
  repoTop: string | null;
  config: Config;
}

export interface EndTurnResult {
  ok: boolean;
  findings: Findings;
}

export async function endTurnCheck(
  db: Db,
  session: { id: string },
  ctx: EndTurnContext,
): Promise<EndTurnResult> {
  // Store reads first: after the spawn below the same reads cost several times more (status.ts).
  const { incompleteHistory, owned } = ownedPaths(db, session.id, ctx.config.freshnessSeconds);
  const stashes = createdStashes(db, session.id);
  const since = sessionStartTs(db, session.id);
  // Authority comes from the project config as it is now, exactly as at pre-tool-use.
  const roots = resolveRoots(gatherRootFacts(ctx.root, ctx.config.finalizationRoots, ctx.repoTop));
  const may = gitAuthority(roots);
  // The coordination repository's status starts now and runs beside the classification, which
  // costs more than it would before a spawn but less than waiting for it (early-status.ts).
  const early = startEarly(ctx.repoTop, owned, may);
  // Directory listings read while classifying also answer which owned paths could hold a `.git`.
  const listings = new DirListings();
  const paths = classifyScope(owned, roots, listings);
  const gitPaths = paths.flatMap((p) =>
    p.ok && !p.escape && p.classification.kind === "git" ? [p.physical] : [],
  );
  // Any other git process starts here.
  const [facts, stashFacts] = await Promise.all([
    gatherGitFacts(gitPaths, may, listings, early),
    gatherStashes(
      stashes.map((s) => s.repo),
      may,
    ),
  ]);
  // Peers' paths decide only whose a dirty, flagged or ignored path is: none are read for a clean tree.
  const unreached = await gatherUnreached(facts, stashes, stashFacts, since, may);
  const contested = contestedPaths(facts.repos);
  const findings = evaluate({
    incompleteHistory,
    paths,
    peerOwned: peerPathsWithin(db, session.id, ownedAbove(owned, contested)),
    createdStashes: stashes,
    git: { ...facts, stashes: stashFacts, unreached },
  });
  return { ok: passed(findings), findings };
}
