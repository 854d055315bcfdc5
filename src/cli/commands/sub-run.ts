import { Command, InvalidArgumentError } from "commander";
import { CLIENT_NAMES } from "../../clients/index.js";
import { PLAIN, type Printer, spanned } from "../../core/printed.js";
import { UsageError } from "../../errors.js";
import { parseClient, type SubClient } from "../../subagents/lifecycle/launch.js";
import { ttyProgress } from "../../subagents/lifecycle/progress.js";
import { applyText, captureLines, exitText, runJson, subRef } from "../../subagents/lifecycle/report.js";
import { type RunResult, runSub } from "../../subagents/lifecycle/run.js";
import type { Io } from "../context.js";
import { type CommonOptions, printJson, withSubCtx } from "./sub-common.js";

interface RunOptions extends CommonOptions {
  client: SubClient;
  name?: string;
  base?: string;
  apply?: boolean;
  allowConfig?: boolean;
  rm?: boolean;
  timeout?: number;
}

function parseSeconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("expected a number of seconds above 0");
  return n;
}

function runText(r: RunResult, p: Printer): string {
  const { sub } = r;
  const lines = [
    `${sub.id}${sub.name ? ` "${sub.name}"` : ""} — ${sub.client} child ${exitText(sub, false)}`,
    `worktree   ${sub.worktree} (branch ${sub.branch}, base ${sub.base.slice(0, 12)})`,
    `log        ${sub.log}`,
    ...captureLines(r.capture, sub, p),
  ];
  if (r.applied) lines.push(`applied    ${applyText(r.applied).trimEnd()}`);
  if (r.removal) lines.push(`removed    ${r.removal.message}`);
  const next = [
    r.applied?.ok ? "" : spanned(p, "sub", "apply", subRef(sub)),
    r.removal?.ok ? "" : spanned(p, "sub", "remove", subRef(sub)),
  ].filter(Boolean);
  if (next.length) lines.push(`next       ${next.join("   ·   ")}`);
  return `${lines.join("\n")}\n`;
}

export function subRunCommand(io: Io): Command {
  return new Command("run")
    .description("Run a child agent headless in its own worktree, then capture all of its work")
    .option(
      "--client <name>",
      `${CLIENT_NAMES.join(", ")} or exec (ARGS is the command)`,
      parseClient,
      "exec",
    )
    .option("--name <name>", "a name to refer to the sub-agent by")
    .option("--base <ref>", "commit the child starts from (default: HEAD of this checkout)")
    .option("--apply", "apply the artifact to this checkout afterwards")
    .option(
      "--allow-config",
      "with --apply: also apply changes to Tandem's wiring (hook settings, git hooks, .tandem/config.jsonc)",
    )
    .option("--rm", "with --apply: remove the worktree after a successful apply, when allowed")
    .option("--timeout <seconds>", "stop the child after this long (it is still captured)", parseSeconds)
    .option("--json", "print one JSON object on stdout")
    .option("--session <id>", "the calling session (default: the calling agent's)")
    .argument("<args...>", "the command (exec) or the prompt (a client), after --")
    .addHelpText(
      "after",
      `\nExamples:\n  tandem sub run -- sh -c "make fix"\n  tandem sub run --client ${CLIENT_NAMES[0]} --name parser -- "port the parser"\n`,
    )
    .action(async (args: string[], _o: RunOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<RunOptions>();
      if (opts.rm && !opts.apply) throw new UsageError("--rm only works with --apply.");
      if (opts.allowConfig && !opts.apply) throw new UsageError("--allow-config only works with --apply.");
      const tty = process.stderr.isTTY === true;
      let printer = PLAIN;
      const result = await withSubCtx(io, opts, (ctx) => {
        printer = ctx.printer;
        return runSub(ctx, {
          client: opts.client,
          name: opts.name ?? null,
          baseRef: opts.base ?? null,
          args,
          cwd: io.cwd,
          env: io.env,
          timeoutMs: opts.timeout ? opts.timeout * 1000 : null,
          apply: opts.apply === true,
          allowConfig: opts.allowConfig === true,
          rm: opts.rm === true,
          progress: tty ? (label) => ttyProgress((t) => io.err(t), label) : null,
        });
      });
      if (opts.json) printJson(io, runJson(result.sub, result.capture, result.applied));
      else io.out(runText(result, printer));
      if (!result.ok) io.exitCode = 1;
    });
}
