import type { ClaimTarget, RefusedTarget } from "../claims/decide.js";
import { relativeKey } from "../paths/lexical.js";
import type { TargetFacts } from "../paths/target.js";
import { type Printer, spanned } from "../printed.js";
import {
  ALLOW_WIRING_ENV,
  grantsWiringEdits,
  WIRING_RULE,
  type WiringFacts,
  type WiringHit,
  wiringMatcher,
} from "./wiring.js";

/** Callers hand `planTargets` these facts; the type lives with the resolved target it extends. */
export type { TargetFacts };

/** Tandem's own wiring, refused to agents unless the person who started the agent allowed it. */
export interface WiringGuard {
  facts: WiringFacts;
  allowed: boolean;
  /** A shell tool call's command text, to see whether it hands out the permission itself. */
  command: string | null;
  /** Commands of the call that change the wiring without naming a file (`tandem deinit`). */
  commands?: readonly string[];
  /** How the user the agent is sent to starts Tandem, for the init/deinit it is told to ask for. */
  person: Printer;
}

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

function protectedWiring(raw: string, target: string, hit: WiringHit, person: Printer): RefusedTarget {
  const what =
    hit.file === target
      ? `it is Tandem's wiring (${hit.what})`
      : `it holds Tandem's wiring (${hit.what}: ${hit.file})`;
  return {
    raw,
    rule: WIRING_RULE,
    reason: `${what}, and an agent changing it could switch coordination off. Ask the user to make this change themselves, or to run ${spanned(person, "init")} / ${spanned(person, "deinit")} (a user who wants agents to edit it starts the agent with ${ALLOW_WIRING_ENV}=1)`,
  };
}

function wiringCheck(
  guard: WiringGuard | null,
): (f: Extract<TargetFacts, { ok: true }>) => RefusedTarget | null {
  if (guard === null || guard.allowed) return () => null;
  const match = wiringMatcher(guard.facts);
  return (f) => {
    for (const path of f.lexical === undefined ? [f.physical] : [f.physical, f.lexical]) {
      const hit = match(path);
      if (hit) return protectedWiring(f.raw, path, hit, guard.person);
    }
    return null;
  };
}

/**
 * Which targets are claimed, refused or left uncoordinated (docs/product.md §4.3 steps 2–3). Tandem's
 * wiring is refused first, wherever it lies, unless the guard allows it.
 * With requireGitFinalization on, anything the end-turn check could not verify is
 * refused before it is written; otherwise it is allowed but not claimed.
 */
export function planTargets(
  facts: readonly TargetFacts[],
  requireGitFinalization: boolean,
  wiring: WiringGuard | null = null,
): TargetPlan {
  const plan: TargetPlan = { claim: [], refused: [], uncoordinated: [] };
  const wiringRefusal = wiringCheck(wiring);
  if (wiring && !wiring.allowed && wiring.command !== null && grantsWiringEdits(wiring.command)) {
    plan.refused.push({
      raw: ALLOW_WIRING_ENV,
      rule: WIRING_RULE,
      reason: `only the person who starts an agent may set it, since it lets the agent change Tandem's wiring; run the command without it, or ask the user`,
    });
  }
  if (wiring && !wiring.allowed) {
    for (const command of wiring.commands ?? []) {
      plan.refused.push({
        raw: command,
        rule: WIRING_RULE,
        reason: `it changes Tandem's wiring, and an agent doing so could switch coordination off. Ask the user to run it themselves`,
      });
    }
  }
  for (const f of facts) {
    if (!f.ok) {
      plan.refused.push({ raw: f.raw, rule: "bad-path", reason: f.reason });
      continue;
    }
    const refusedWiring = wiringRefusal(f);
    if (refusedWiring) {
      plan.refused.push(refusedWiring);
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
