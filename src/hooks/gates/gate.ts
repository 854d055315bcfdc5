/**
 * What a pre-tool gate is (docs/architecture.md "The path of one hook"): an id, its place in the
 * order, the rules it may refuse with, the facts it reads, and `run`, which answers a refusal or
 * null. The facts are computed once per call, when a gate first reads them (./facts.ts).
 */
import type { ToolCall, Verdict, VerdictRule } from "../../clients/types.js";
import type { ClaimDecision, ClaimTarget } from "../../core/claims/decide.js";
import type { TargetFacts, TargetPlan } from "../../core/guards/target-plan.js";
import type { RemoteHolder } from "../../core/remote/holders.js";
import type { RemoteVerdict } from "../../core/remote/verdict.js";
import type { ToolTargets } from "../../targets/tool-targets.js";
import type { HookCtx } from "../context.js";

/** One row of the ledger's `claim.denied` event. */
export interface RefusedRow {
  path: string;
  reason: string;
  holder: string | null;
}

export interface PreToolFacts {
  tool: ToolCall;
  cwd: string;
  /** The paths the call writes, and what its shell command does (targets/tool-targets.ts). */
  found: ToolTargets;
  /** Each target resolved and classified against the roots. */
  targets: readonly TargetFacts[];
  /** What to claim and what is refused before any claim (core/guards/target-plan.ts). */
  plan: TargetPlan;
  /** Other checkouts' holders of the planned targets, and their verdict. */
  remote: { holders: readonly RemoteHolder[]; verdict: RemoteVerdict };
  /** The planned targets and every other name (hard link) of them. */
  claimTargets: readonly ClaimTarget[];
  /** The claims decided and recorded in one transaction (acquired, or denied with its event). */
  decision: ClaimDecision;
}

export type FactName = keyof PreToolFacts;

export interface Refusal<K extends VerdictRule = VerdictRule> {
  verdict: Verdict & { allow: false; rule: K; reason: string };
  /** Rows for the ledger's `claim.denied`; absent when the gate recorded the refusal itself. */
  refused?: readonly RefusedRow[];
}

export interface Gate<R extends FactName = FactName, K extends VerdictRule = VerdictRule> {
  id: string;
  /** Gates run in ascending order; the first refusal answers the call. */
  order: number;
  /** Every rule `run` may refuse with: each must have a catalog entry (src/core/rules/catalog.ts). */
  rules: readonly K[];
  reads: readonly R[];
  run(ctx: HookCtx, facts: Pick<PreToolFacts, R>): RunResult<K>;
}

type RunResult<K extends VerdictRule> = Refusal<K> | null | Promise<Refusal<K> | null>;

/** A gate whose `run` sees only the facts it declares, and refuses only with the rules it lists. */
export function defineGate<const R extends FactName, const K extends VerdictRule>(
  gate: Omit<Gate<R, K>, "run"> & { run(ctx: HookCtx, facts: Pick<PreToolFacts, R>): RunResult<NoInfer<K>> },
): Gate {
  return gate as unknown as Gate;
}
