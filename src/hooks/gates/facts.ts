/**
 * The facts of one pre-tool call (./gate.ts): the targets are read before any gate runs, as they
 * always were; the rest is computed when a gate first reads it, once, in gate order.
 */
import { join } from "node:path";
import { linkedNames } from "../../claims/hard-links.js";
import type { ToolCall } from "../../clients/types.js";
import type { ClaimTarget } from "../../core/claims/decide.js";
import { planTargets, type TargetFacts, type WiringGuard } from "../../core/guards/target-plan.js";
import { ALLOW_WIRING_ENV } from "../../core/guards/wiring.js";
import { classify, type ResolvedRoots, resolveRoots, rootPaths } from "../../core/paths/roots.js";
import { resolveTarget } from "../../core/paths/target.js";
import { PLAIN } from "../../core/printed.js";
import { remoteVerdict } from "../../core/remote/verdict.js";
import { physicalResolver } from "../../facts/physical.js";
import { fsTargetProbe, gatherRootFacts } from "../../facts/root-facts.js";
import { remoteHoldersOf } from "../../remote/gate.js";
import { type ToolTargets, toolTargets } from "../../targets/tool-targets.js";
import { agentPrinter, type HookCtx, personPrinter, selfSession } from "../context.js";
import { hookWiringFacts } from "../wiring-facts.js";
import { decideAndRecord } from "./claim-decision.js";
import type { PreToolFacts } from "./gate.js";

export function hookRoots(ctx: HookCtx): ResolvedRoots {
  return resolveRoots(
    gatherRootFacts(ctx.root.root, ctx.config.finalizationRoots, ctx.root.repo?.top ?? null),
  );
}

function targetFacts(
  raws: readonly string[],
  cwd: string,
  roots: ResolvedRoots,
  env: HookCtx["req"]["env"],
): TargetFacts[] {
  const paths = rootPaths(roots);
  const wslDistro = env.WSL_DISTRO_NAME || undefined;
  const physicalOf = physicalResolver();
  return raws.map((raw) => {
    const r = resolveTarget(raw, cwd, paths, wslDistro ? { wslDistro } : {}, physicalOf);
    if (!r.ok) return { raw, ok: false, reason: r.reason };
    return {
      raw,
      ok: true,
      physical: r.target.physical,
      lexical: r.target.lexical,
      escape: r.target.escape,
      classification: classify(r.target.physical, roots, fsTargetProbe),
    };
  });
}

/** The wiring facts only cost anything when a target resolved; the person's env decides the rest. */
function wiringGuard(ctx: HookCtx, facts: readonly TargetFacts[], found: ToolTargets): WiringGuard {
  const shell = found.shell;
  const allowed = ctx.req.env[ALLOW_WIRING_ENV] === "1";
  const paths = allowed
    ? []
    : facts.flatMap((f) => (f.ok ? [f.physical, ...(f.lexical ? [f.lexical] : [])] : []));
  // The serialized input holds the command however the client shaped it (string or argv).
  const command = shell ? JSON.stringify(ctx.input.tool?.input ?? null) : null;
  return {
    facts: hookWiringFacts(ctx, paths, physicalResolver()),
    allowed,
    command,
    commands: found.wiringCommands,
    // Read only when a refusal names init or deinit: an ordinary write reads no launcher.
    get person() {
      return personPrinter(ctx);
    },
  };
}

/** A getter that computes its value on first read and keeps it. */
function once<T>(compute: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value;
  };
}

/** The call's facts: targets read now, the rest on a gate's first read. */
export async function preToolFacts(ctx: HookCtx, tool: ToolCall): Promise<PreToolFacts> {
  const cwd = tool.cwd ?? ctx.input.cwd ?? ctx.root.root;
  const found = await toolTargets(tool, { cwd, env: ctx.req.env, home: ctx.req.env.HOME || undefined });
  const targets = targetFacts(found.raws, cwd, hookRoots(ctx), ctx.req.env);
  const plan = planTargets(targets, ctx.config.requireGitFinalization, wiringGuard(ctx, targets, found));
  const remote = once(() => {
    const holders = remoteHoldersOf(
      ctx,
      plan.claim.map((t) => join(t.worktree, t.path)),
    );
    // No holder, no message: the agent's launcher is read only when one is printed.
    const printer = holders.length > 0 ? agentPrinter(ctx) : PLAIN;
    return { holders, verdict: remoteVerdict(holders, ctx.config.remoteClaims, ctx.now, printer) };
  });
  // A file with other names (a hard link anyone made) is written under each of them: judge them all.
  const claimTargets = once(() => {
    const links = linkedNames(ctx.db, plan.claim, selfSession(ctx), ctx.now, ctx.config.freshnessSeconds);
    return links.length > 0 ? [...plan.claim, ...links] : plan.claim;
  });
  const decision = once(() => decideAndRecord(ctx, tool, found.raws, claimTargets(), plan.refused));
  return {
    tool,
    cwd,
    found,
    targets,
    plan,
    get remote() {
      return remote();
    },
    get claimTargets() {
      return claimTargets();
    },
    get decision() {
      return decision();
    },
  };
}

/** A tool call's claimable targets as the pre-tool hook plans them: the post-tool's line authors read them. */
export async function plannedTargets(ctx: HookCtx, tool: ToolCall): Promise<ClaimTarget[]> {
  const cwd = tool.cwd ?? ctx.input.cwd ?? ctx.root.root;
  const found = await toolTargets(tool, { cwd, env: ctx.req.env, home: ctx.req.env.HOME || undefined });
  return planTargets(
    targetFacts(found.raws, cwd, hookRoots(ctx), ctx.req.env),
    ctx.config.requireGitFinalization,
  ).claim;
}
