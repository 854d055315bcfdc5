/**
 * `tandem status --end-turn` (docs/product.md §5): proves the session's own Git work is committed and
 * pushed. Scope and classification (scope.ts) and Git facts (facts.ts) are gathered here; the
 * verdict is core/finalization.ts.
 */
import type { Config } from "../config/schema.js";
import { evaluate, type Findings, passed } from "../core/finalization.js";
import { resolveRoots } from "../core/roots.js";
import { DirListings } from "../facts/dir-listing.js";
import { gatherRootFacts } from "../facts/root-facts.js";
import type { Db } from "../store/db.js";
import { gatherGitFacts, gitAuthority } from "./facts.js";
import { classifyScope, ownedScope } from "./scope.js";

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
  const scope = ownedScope(db, session.id);
  // Authority comes from the project config as it is now, exactly as at pre-tool-use.
  const roots = resolveRoots(gatherRootFacts(ctx.root, ctx.config.finalizationRoots, ctx.repoTop));
  // Directory listings read while classifying also answer which owned paths could hold a `.git`.
  const listings = new DirListings();
  const paths = classifyScope(scope.owned, roots, listings);
  const gitPaths = paths.flatMap((p) =>
    p.ok && !p.escape && p.classification.kind === "git" ? [p.physical] : [],
  );
  const stashRepos = scope.createdStashes.map((s) => s.repo);
  const git = await gatherGitFacts(gitPaths, gitAuthority(roots), listings, stashRepos);
  const findings = evaluate({
    incompleteHistory: scope.incompleteHistory,
    paths,
    peerOwned: scope.peers,
    createdStashes: scope.createdStashes,
    git,
  });
  return { ok: passed(findings), findings };
}
