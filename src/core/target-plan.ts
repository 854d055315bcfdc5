import type { ClaimTarget, RefusedTarget } from "./claims.js";
import { relativeKey } from "./paths.js";
import type { Classification } from "./roots.js";
import type { SymlinkEscape } from "./target-path.js";

export type TargetFacts =
  | { raw: string; ok: true; physical: string; escape: SymlinkEscape | null; classification: Classification }
  | { raw: string; ok: false; reason: string };

export interface TargetPlan {
  claim: ClaimTarget[];
  refused: RefusedTarget[];
  /** Targets outside every root, allowed unclaimed (requireGitFinalization off). */
  uncoordinated: string[];
}

const REMEDY =
  'add the directory to agents.finalizationRoots in .tandem/config.jsonc ({"path": …, "disposition": "git"|"output"}), or start the work from the project that owns it';

function unverifiable(f: Extract<TargetFacts, { ok: true }>): RefusedTarget | null {
  const c = f.classification;
  if (f.escape) {
    return {
      raw: f.raw,
      rule: "symlink-escape",
      reason: `it leads through a symlink out of ${f.escape.root} to ${f.physical}, which the end-turn check cannot verify; ${REMEDY}`,
    };
  }
  if (c.kind === "outside")
    return {
      raw: f.raw,
      rule: "outside-roots",
      reason: `outside the authorized roots: ${c.reason}; ${c.remedy}`,
    };
  if (c.kind === "invalid-root" || c.kind === "unsupported") {
    return { raw: f.raw, rule: c.kind, reason: `${c.reason}; ${c.remedy}` };
  }
  return null;
}

/**
 * Which targets are claimed, refused or left uncoordinated (docs/product.md §4.3 steps 2–3).
 * With requireGitFinalization on, anything the end-turn check could not verify is
 * refused before it is written; otherwise it is allowed but not claimed.
 */
export function planTargets(facts: readonly TargetFacts[], requireGitFinalization: boolean): TargetPlan {
  const plan: TargetPlan = { claim: [], refused: [], uncoordinated: [] };
  for (const f of facts) {
    if (!f.ok) {
      plan.refused.push({ raw: f.raw, rule: "bad-path", reason: f.reason });
      continue;
    }
    const c = f.classification;
    if ((c.kind === "git" || c.kind === "output") && !(f.escape && requireGitFinalization)) {
      plan.claim.push({
        raw: f.raw,
        worktree: c.root,
        path: relativeKey(c.root, f.physical),
        disposition: c.kind,
        root: c.root,
      });
      continue;
    }
    const refusal = unverifiable(f);
    if (requireGitFinalization && refusal) plan.refused.push(refusal);
    else plan.uncoordinated.push(f.raw);
  }
  return plan;
}
