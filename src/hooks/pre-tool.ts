import { ALLOW, type Verdict } from "../clients/types.js";
import { syncSoon } from "../remote/sync-soon.js";
import { dbFile } from "../store/db.js";
import { verifyGateTables } from "../store/trust.js";
import type { HookCtx } from "./context.js";
import { preToolFacts } from "./gates/facts.js";
import { runGates } from "./gates/run.js";
import { jailRewrite } from "./jail-rewrite.js";
import { watchOwnedWork } from "./owner-watch.js";
import { protectShell } from "./shell-protect.js";

/**
 * docs/product.md §4.3: find every target and resolve them all (./gates/facts.ts), then run the
 * gates in order (./gates/index.ts); the first refusal answers. Past every gate, the claims are
 * acquired: a shell command's peers are protected and the remote told.
 */
export async function onPreTool(ctx: HookCtx): Promise<Verdict> {
  const tool = ctx.input.tool;
  if (!tool) return ALLOW;
  // First: a change behind an owner's back is recorded before the safety net copies it as a peer's.
  watchOwnedWork(ctx);
  const facts = await preToolFacts(ctx, tool);
  // A gate decides from the claims table: check its structure first (a few pages).
  if (facts.found.raws.length > 0 || facts.found.shell) verifyGateTables(ctx.db, dbFile(ctx.stateDir));
  const refused = await runGates(ctx, facts);
  if (refused) return refused;
  if (facts.found.shell) await protectShell(ctx, tool, facts.found, facts.plan.claim);
  if (facts.decision.allow && facts.decision.acquire.length > 0) syncSoon(ctx, true);
  const warning = facts.remote.verdict.warning;
  // Past every gate: with `guard: "kernel"`, a shell command is rewritten to run in a jail.
  return jailRewrite(ctx, tool, warning ? { ...ALLOW, context: warning } : ALLOW);
}
