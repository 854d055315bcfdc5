import { Command } from "commander";
import { UsageError } from "../../errors.js";
import { applyPlans } from "../../init/apply.js";
import { checkCodexTrust, describeTrust, type TrustReport } from "../../init/codex-trust.js";
import { checkLauncher, defaultLauncher, launcherNote } from "../../init/hook-command.js";
import { initRoot, parseClients } from "../../init/options.js";
import { type FilePlan, planInit } from "../../init/plan.js";
import {
  driftLines,
  formatCheck,
  formatJson,
  formatSummary,
  type RunMode,
  refusalLine,
} from "../../init/report.js";
import { readSnapshot } from "../../init/snapshot.js";
import type { Io } from "../context.js";

interface InitOptions {
  clients?: string;
  gitHooks: boolean;
  check?: boolean;
  dryRun?: boolean;
  command?: string;
  json?: boolean;
  root?: string;
}

/** Refusals stop the whole run before anything is written: one line each, exit 1. */
export function reportRefusals(io: Io, root: string, plans: readonly FilePlan[]): boolean {
  const refused = plans.filter((p) => p.action === "refuse");
  for (const p of refused) io.err(`tandem: ${refusalLine(root, p)} (nothing was written).\n`);
  if (refused.length > 0) io.exitCode = 1;
  return refused.length > 0;
}

async function runInit(io: Io, opts: InitOptions): Promise<void> {
  if (opts.check && opts.dryRun)
    throw new UsageError("--check and --dry-run cannot be combined; --check already writes nothing.");
  const clients = parseClients(opts.clients);
  const launcher = opts.command === undefined ? defaultLauncher() : checkLauncher(opts.command);
  const root = initRoot(io.cwd, opts.root, io.env);
  const plans = planInit(readSnapshot(root, clients, opts.gitHooks), launcher);
  const mode: RunMode = opts.check ? "check" : opts.dryRun ? "dry-run" : "write";
  if (mode === "check") {
    io.out(opts.json ? formatJson(root, plans, "init", mode, null) : formatCheck(root, plans));
    if (driftLines(root, plans).length > 0) io.exitCode = 1;
    return;
  }
  if (reportRefusals(io, root, plans)) return;
  if (mode === "write") applyPlans(plans);
  // Codex skips untrusted hooks silently: say so right after wiring them.
  const trust: TrustReport | null =
    mode === "write" && clients.includes("codex") ? await checkCodexTrust(root, io.env) : null;
  if (opts.json) {
    io.out(formatJson(root, plans, "init", mode, trust));
    return;
  }
  io.out(formatSummary(root, plans, "init", mode));
  const note = opts.command === undefined ? launcherNote(launcher) : null;
  if (note) io.out(`${note}\n`);
  if (trust) io.out(`${describeTrust(trust)}\n`);
}

export function initCommand(io: Io): Command {
  return new Command("init")
    .description("Wire Tandem's hooks into Claude Code, Codex, Cursor and git (idempotent)")
    .option("--clients <list>", "comma-separated: claude-code,codex,cursor (default: all three)")
    .option("--no-git-hooks", "do not install the pre-commit, post-commit and post-checkout hooks")
    .option("--check", "compare what init would write; exit 0 current, 1 drift (each difference printed)")
    .option("--dry-run", "print what would change, write nothing")
    .option(
      "--command <launcher>",
      'how hooks start Tandem, e.g. "tandem" to use PATH (default: this node and bundle)',
    )
    .option("--json", "print the result as one JSON object")
    .addHelpText(
      "after",
      "\nExamples:\n  tandem init\n  tandem init --clients codex --no-git-hooks\n  tandem init --check\n",
    )
    .action((_opts: InitOptions, cmd: Command) => runInit(io, cmd.optsWithGlobals<InitOptions>()));
}
