import { Command } from "commander";
import { UsageError } from "../../errors.js";
import { applySub } from "../../subagents/apply/apply.js";
import { applyText } from "../../subagents/lifecycle/report.js";
import { resolveCommit } from "../../subagents/shared/git.js";
import { findSub } from "../../subagents/shared/records.js";
import type { Io } from "../context.js";
import { type CommonOptions, printJson, targetOf, withSubCtx } from "./sub-common.js";

interface ApplyOptions extends CommonOptions {
  target?: string;
  dryRun?: boolean;
  expectedHead?: string;
  only?: string[];
  acknowledgeUncaptured?: boolean;
  acknowledgePartial?: boolean;
  allowConfig?: boolean;
  allowInProgress?: boolean;
  allowConflictMarkers?: boolean;
}

export function subApplyCommand(io: Io): Command {
  return new Command("apply")
    .description(
      "Apply a sub-agent's latest capture: its commits, then its uncommitted changes (left unstaged)",
    )
    .argument("<id>", "sub-agent id or name")
    .option("--target <dir>", "worktree to apply into (default: the one containing the current directory)")
    .option("--dry-run", "try it in a temporary worktree; the target is not touched")
    .option("--expected-head <sha>", "refuse unless the target's HEAD is this commit")
    .option("--only <prefix...>", "refuse if the artifact touches any path outside these prefixes")
    .option("--acknowledge-uncaptured", "apply even though some of the child's work was not captured")
    .option("--acknowledge-partial", "record a blocked or interrupted apply as finished by hand")
    .option(
      "--allow-config",
      "also apply changes to Tandem's wiring (hook settings, git hooks, .tandem/config.jsonc), refused without it",
    )
    .option(
      "--allow-in-progress",
      "apply a capture taken while the child was in the middle of a rebase, merge, cherry-pick…",
    )
    .option("--allow-conflict-markers", "apply an uncommitted patch that adds conflict markers")
    .option("--json", "print the outcome as JSON")
    .option("--session <id>", "the calling session (default: the calling agent's)")
    .addHelpText(
      "after",
      "\nExamples:\n  tandem sub apply sub_1a2b3c4d --dry-run\n  tandem sub apply parser --only src/parser\n",
    )
    .action(async (id: string, _o: ApplyOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<ApplyOptions>();
      const target = targetOf(io, opts.target);
      const result = await withSubCtx(io, opts, (ctx) => {
        const sub = findSub(ctx.db, id);
        if (target === sub.worktree)
          throw new UsageError(`${target} is ${sub.id}'s own worktree; apply into another checkout.`);
        let expectedHead: string | null = null;
        if (opts.expectedHead !== undefined) {
          expectedHead = resolveCommit(target, opts.expectedHead);
          if (!expectedHead)
            throw new UsageError(`--expected-head ${opts.expectedHead} is not a commit in ${target}.`);
        }
        return applySub(ctx, {
          sub,
          target,
          dryRun: opts.dryRun === true,
          expectedHead,
          only: opts.only ?? null,
          ackUncaptured: opts.acknowledgeUncaptured === true,
          ackPartial: opts.acknowledgePartial === true,
          allowConfig: opts.allowConfig === true,
          allowInProgress: opts.allowInProgress === true,
          allowConflictMarkers: opts.allowConflictMarkers === true,
        });
      });
      if (opts.json) printJson(io, result);
      else (result.ok ? io.out : io.err)(applyText(result));
      if (!result.ok) io.exitCode = 1;
    });
}
