import { Command } from "commander";
import { clientsOptionHelp } from "../../clients/index.js";
import { resolveRoot, stateDirOf } from "../../config/root.js";
import { agentCommandFor } from "../../wiring/agent-launch.js";
import { applyPlans } from "../../wiring/apply.js";
import { policyCommands } from "../../wiring/gemini-policy.js";
import { unexcludeLocalFiles } from "../../wiring/local-exclude.js";
import { initRoot, parseClients, readRecordedInit } from "../../wiring/options.js";
import { planDeinit } from "../../wiring/plan.js";
import { formatJson, formatSummary } from "../../wiring/report.js";
import { readSnapshot } from "../../wiring/snapshot.js";
import { withSubmoduleHooks } from "../../wiring/submodules.js";
import { unwire } from "../../wiring/wiring-record.js";
import type { Io } from "../context.js";
import { leftBehind } from "./deinit-notes.js";
import { reportRefusals } from "./init.js";

interface DeinitOptions {
  clients?: string;
  gitHooks: boolean;
  dryRun?: boolean;
  json?: boolean;
  root?: string;
}

/** The commands agents here are told: an older Tandem's shared Gemini rule goes only if it allows no others. */
function ownCommands(root: string, env: Io["env"]): string[] {
  const launcher = readRecordedInit(root)?.command ?? "tandem";
  const stateDir = stateDirOf(resolveRoot({ cwd: root, env }));
  return policyCommands(launcher, root, agentCommandFor(root, stateDir, launcher));
}

function runDeinit(io: Io, opts: DeinitOptions): void {
  const clients = parseClients(opts.clients);
  const root = initRoot(io.cwd, opts.root, io.env);
  const snapshot = withSubmoduleHooks(readSnapshot(root, clients, opts.gitHooks, io.env));
  const plans = planDeinit(snapshot, ownCommands(root, io.env));
  if (reportRefusals(io, root, plans)) return;
  const mode = opts.dryRun ? "dry-run" : "write";
  // The healer's record goes first: nothing puts back what deinit removes.
  if (mode === "write")
    unwire(root, io.env, { clients, gitHooks: opts.gitHooks }, () => {
      applyPlans(plans);
      unexcludeLocalFiles(root, clients);
    });
  if (opts.json) {
    io.out(formatJson(root, plans, "deinit", mode, null));
    return;
  }
  io.out(formatSummary(root, plans, "deinit", mode));
  for (const line of leftBehind(root, io.env)) io.out(`${line}\n`);
}

export function deinitCommand(io: Io): Command {
  return new Command("deinit")
    .description("Remove exactly the hooks `tandem init` added (keeps .tandem/config.jsonc)")
    .option("--clients <list>", clientsOptionHelp())
    .option("--no-git-hooks", "leave the git hooks alone")
    .option("--dry-run", "print what would change, write nothing")
    .option("--json", "print the result as one JSON object")
    .addHelpText("after", "\nExample:\n  tandem deinit --clients cursor\n")
    .action((_opts: DeinitOptions, cmd: Command) => runDeinit(io, cmd.optsWithGlobals<DeinitOptions>()));
}
