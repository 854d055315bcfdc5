/**
 * With `guard: "kernel"`, a shell command of a client whose pre-tool answer can replace it runs in
 * the kernel jail (docs/decisions/0056): the hook writes the session's plan (its live peers'
 * uncommitted files, Tandem's state, the installation, the wiring) and answers with the command
 * rewritten to the launcher, which needs no second Node. A jail that cannot be set up refuses.
 */
import type { ToolCall, Verdict } from "../clients/types.js";
import type { MountPlan } from "../core/jail/plan.js";
import {
  enteredCommand,
  jailedCommand,
  rewriteStep,
  rewrittenInput,
  seatbeltCommand,
} from "../core/jail/rewrite.js";
import { spanned } from "../core/printed.js";
import { refusal } from "../core/rules/catalog.js";
import { errorMessage } from "../errors.js";
import { standingJail } from "../jail/holder.js";
import { ensureSessionKey } from "../jail/keys.js";
import { ensureJailLauncher, kernelVerdict, writeJailPlan } from "../jail/launcher.js";
import { sessionPlan } from "../jail/plan.js";
import { writeSeatbeltProfile } from "../jail/seatbelt.js";
import type { SessionRow } from "../store/sessions/rows.js";
import { agentPrinter, type HookCtx, selfSession } from "./context.js";

/** `verdict` (an allow) as it leaves the hook: unchanged, with the jailed command, or a refusal. */
export function jailRewrite(ctx: HookCtx, tool: ToolCall, verdict: Verdict): Verdict {
  const rewrite = ctx.client.commandRewrite;
  const field = rewrite.used && tool.name === rewrite.tool ? rewrite.field : null;
  if (!verdict.allow || ctx.config.guard !== "kernel" || field === null) return verdict;
  const kernel = kernelVerdict(ctx.req.env, agentPrinter(ctx));
  const step = rewriteStep({ guard: ctx.config.guard, field, input: tool.input, kernel });
  if (step.kind === "none") return verdict;
  if (step.kind === "refuse") return { allow: false, rule: "kernel-guard", reason: step.reason };
  const self = selfSession(ctx);
  try {
    const plan = sessionPlan({
      db: ctx.db,
      resolved: ctx.root,
      stateDir: ctx.stateDir,
      self,
      freshnessSeconds: ctx.config.freshnessSeconds,
      now: ctx.now,
      env: ctx.req.env,
    });
    const session = self?.id ?? ctx.input.sessionId;
    const command =
      kernel.ok && kernel.seatbelt
        ? seatbeltCommand(writeSeatbeltProfile(ctx.stateDir, session, plan), step.command)
        : namespaced(ctx, self, session, plan, step.command);
    return { ...verdict, updatedInput: rewrittenInput(tool.input, field, command) };
  } catch (err) {
    return refusal("kernel-guard", {
      detail: `the jail's plan could not be written (${errorMessage(err)})`,
      fix: `run ${spanned(agentPrinter(ctx), "doctor")}`,
    });
  }
}

/** Linux: the command in the session's namespace jail, standing or made for it. */
function namespaced(
  ctx: HookCtx,
  self: SessionRow | null,
  session: string,
  plan: MountPlan,
  command: string,
): string {
  // The jail's credential: only this session's jails can read it (decision 0064).
  ensureSessionKey(ctx.stateDir, session);
  const paths = plan.binds.map((b) => b.path);
  const planFile = writeJailPlan(ctx.stateDir, session, paths);
  const launcher = ensureJailLauncher(ctx.stateDir, ctx.root.root);
  // A standing jail when the session's agent is known (decision 0079); else one made for this command.
  const standing = standingJail(launcher, planFile, paths, self?.agent_pid ?? null);
  return standing
    ? enteredCommand(standing, command, process.getuid?.() === 0)
    : jailedCommand(launcher, planFile, command);
}
