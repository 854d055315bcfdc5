import { Command } from "commander";
import { CLIENTS, type ClientName, clientLabels, clientsOptionHelp } from "../../clients/index.js";
import { launcherWords } from "../../clients/launcher-words.js";
import { loadConfig } from "../../config/load.js";
import { resolveRoot, stateDirOf } from "../../config/root.js";
import { guardNote } from "../../core/jail/rewrite.js";
import { type Printer, spanned } from "../../core/printed.js";
import { naturalCommand } from "../../core/shell/agent-command.js";
import { printerFor } from "../../core/shell/person-launcher.js";
import { loginCheck } from "../../doctor/agent-shell-check.js";
import { geminiTrustFinding } from "../../doctor/gemini-trust.js";
import { opencodePluginFindings } from "../../doctor/plugin-check.js";
import { userSwitchFindings } from "../../doctor/user-switch-check.js";
import { TandemError, UsageError } from "../../errors.js";
import { ensureJailLauncher, jailLauncherPath } from "../../jail/launcher.js";
import { agentCommandFor } from "../../wiring/agent-launch.js";
import { probeLogin, writeProbe } from "../../wiring/agent-shell.js";
import { applyPlans } from "../../wiring/apply.js";
import { checkCodexTrust, describeTrust, type TrustReport } from "../../wiring/codex-trust.js";
import { checkLauncher, launcherNote, pinnedLauncher } from "../../wiring/hook-command.js";
import type { InitRecord } from "../../wiring/init-record.js";
import { installFacts } from "../../wiring/install-facts.js";
import {
  chooseLauncher,
  explicitLauncher,
  type LauncherChoice,
  noPortableLauncher,
} from "../../wiring/launcher.js";
import { excludeLocalFiles } from "../../wiring/local-exclude.js";
import { initRoot, parseClients, readRecordedInit } from "../../wiring/options.js";
import { type FilePlan, planInit } from "../../wiring/plan.js";
import { repoLauncherPath, runningTarget, writeRepoLauncher } from "../../wiring/repo-launcher.js";
import {
  driftLines,
  formatCheck,
  formatJson,
  formatSummary,
  type RunMode,
  refusalLine,
} from "../../wiring/report.js";
import { ritualGaps } from "../../wiring/ritual-gaps.js";
import { readSnapshot } from "../../wiring/snapshot.js";
import { withSubmoduleHooks } from "../../wiring/submodules.js";
import { rewire } from "../../wiring/wiring-record.js";
import type { Io } from "../context.js";

interface InitOptions {
  clients?: string;
  gitHooks?: boolean;
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

/**
 * Flags first, then what `.tandem/config.jsonc` records, then what this install suggests; with
 * none of them portable, init refuses (exit 2) rather than commit one machine's paths.
 */
function resolveChoice(
  io: Io,
  opts: InitOptions,
  root: string,
): { choice: LauncherChoice; record: InitRecord } {
  const recorded = readRecordedInit(root);
  const clients =
    opts.clients === undefined && recorded?.clients?.length ? recorded.clients : parseClients(opts.clients);
  const gitHooks = opts.gitHooks ?? recorded?.gitHooks ?? true;
  const given = opts.command ?? recorded?.command;
  const choice =
    given === undefined ? chooseLauncher(installFacts(root, io.env)) : explicitLauncher(checkLauncher(given));
  if (!choice) throw new TandemError(noPortableLauncher(pinnedLauncher()), 2);
  return { choice, record: { command: choice.launcher, clients, gitHooks } };
}

const oncePerClone = (init: string) =>
  `Commit the client files and .tandem/config.jsonc; git hooks are not committed, so every clone runs ${init} once.`;

/** How the person running init starts Tandem once `launcher` is recorded (decision 0051). */
function personPrinter(root: string, launcher: string): Printer {
  const recorded = { text: launcher, words: launcherWords(launcher) };
  return printerFor("person", { agentLauncher: "", recorded, root });
}

async function runInit(io: Io, opts: InitOptions): Promise<void> {
  if (opts.check && opts.dryRun)
    throw new UsageError("--check and --dry-run cannot be combined; --check already writes nothing.");
  const root = initRoot(io.cwd, opts.root, io.env);
  const { choice, record } = resolveChoice(io, opts, root);
  const { clients } = record;
  const mode: RunMode = opts.check ? "check" : opts.dryRun ? "dry-run" : "write";
  const stateDir = stateDirOf(resolveRoot({ cwd: root, env: io.env }));
  // Before planning: the rules name the command agents will be told, which the probe decides.
  const person = personPrinter(root, choice.launcher);
  const shell = mode === "write" ? probeAgentShell(io, root, stateDir, choice.launcher, person) : null;
  const agent = agentCommandFor(root, stateDir, choice.launcher);
  const plans = planInit(
    withSubmoduleHooks(readSnapshot(root, clients, record.gitHooks, io.env)),
    choice.launcher,
    record,
    agent,
  );
  if (mode === "check") {
    io.out(
      opts.json
        ? formatJson(root, plans, "init", mode, null)
        : formatCheck(root, plans, spanned(person, "init")),
    );
    // Files init does not write that switch hooks off or run beside them: --check names them.
    const user = [...userSwitchFindings(io.env), ...opencodePluginFindings(root, io.env)].map(
      (f) => `${f.detail}; fix: ${f.fix}`,
    );
    if (user.length > 0) (opts.json ? io.err : io.out)(`${user.join("\n")}\n`);
    if (driftLines(root, plans).length > 0 || user.length > 0) io.exitCode = 1;
    return;
  }
  if (reportRefusals(io, root, plans)) return;
  let excluded: ReturnType<typeof excludeLocalFiles> = null;
  const unhealed =
    mode === "write"
      ? rewire(
          root,
          io.env,
          { root, launcher: choice.launcher, clients, gitHooks: record.gitHooks },
          () => {
            applyPlans(plans);
            excluded = excludeLocalFiles(root);
          },
          person,
        )
      : null;
  if (unhealed) io.err(`${unhealed}\n`);
  // Codex skips untrusted hooks silently: say so right after wiring them.
  const trust: TrustReport | null =
    mode === "write" && clients.some((n) => CLIENTS[n].trust === "hook-review")
      ? await checkCodexTrust(root, io.env)
      : null;
  if (opts.json) {
    io.out(formatJson(root, plans, "init", mode, trust));
    return;
  }
  io.out(formatSummary(root, plans, "init", mode));
  const ex = excluded as ReturnType<typeof excludeLocalFiles>;
  if (ex) {
    const [verb, it] = ex.paths.length === 1 ? ["holds", "it"] : ["hold", "them"];
    io.out(
      `${ex.paths.join(" and ")} ${verb} this machine's paths: git now ignores ${it} in this clone (${ex.file}).\n`,
    );
  }
  const note = launcherNote(choice.launcher);
  for (const line of [choice.warning, note, oncePerClone(spanned(person, "init"))])
    if (line) io.out(`${line}\n`);
  if (shell) io.out(`${shell}\n`);
  if (mode === "write") io.out(`${kernelGuardLine(io, { root, stateDir, person }, clients)}\n`);
  for (const gap of ritualGaps(choice.launcher, agent, clients)) io.out(`Warning: ${gap}\n`);
  if (trust) io.out(`${describeTrust(trust)}\n`);
  // Gemini runs no project hooks in a folder it does not trust: say so right after wiring them.
  const folders = mode === "write" ? clients.find((n) => CLIENTS[n].trust === "trusted-folders") : undefined;
  const gemini = folders ? geminiTrustFinding(root, io.env) : null;
  if (folders && gemini?.level === "problem")
    io.out(`${CLIENTS[folders].label}: ${gemini.detail}; ${gemini.fix}.\n`);
}

/**
 * Agents run Tandem from their own shell tool, which Codex starts as a login shell: probe the
 * command they would be told and record the answer for the hooks. When it fails there, write the
 * repository launcher (decision 0030), which agents are told instead, and say so.
 */
function probeAgentShell(
  io: Io,
  root: string,
  stateDir: string,
  launcher: string,
  person: Printer,
): string | null {
  const probe = probeLogin(naturalCommand(launcher, root), root, io.env as NodeJS.ProcessEnv);
  writeProbe(stateDir, probe);
  if (probe.works) return null;
  const why = `\`${loginCheck(probe.command)}\` fails here (${probe.detail})`;
  const written = writeRepoLauncher(stateDir, runningTarget());
  if (!written)
    return `Warning: ${why}, and ${repoLauncherPath(stateDir)} could not be written: agents are told \`${pinnedLauncher()}\`. Make that directory writable and re-run ${spanned(person, "init")}.`;
  return `${why}, as Codex's shell tool starts: agents in this repository run ${written} instead, which starts this Tandem from any shell; the ritual's allow rules name it, and the git hooks call it first.`;
}

/** Writes the jail launcher (decision 0056) and says which clients the kernel guard reaches how. */
function kernelGuardLine(
  io: Io,
  at: { root: string; stateDir: string; person: Printer },
  clients: readonly ClientName[],
): string {
  const { root, stateDir } = at;
  try {
    ensureJailLauncher(stateDir, root);
  } catch (err) {
    return `Warning: the jail launcher ${jailLauncherPath(stateDir)} could not be written (${(err as Error).message}); the pre-tool hook writes it when a command needs it.`;
  }
  const specs = clients.map((n) => CLIENTS[n]);
  const guard = loadConfig(root, io.env).config.guard;
  return guardNote(
    guard,
    specs.map((c) => ({ label: c.label, name: c.name, rewrites: c.commandRewrite.used })),
    at.person,
  );
}

export function initCommand(io: Io): Command {
  return new Command("init")
    .description(`Wire Tandem's hooks into the agent clients (${clientLabels()}) and git (idempotent)`)
    .option("--clients <list>", clientsOptionHelp())
    .option(
      "--git-hooks",
      "install the pre-commit, prepare-commit-msg, post-commit and post-checkout hooks (default)",
    )
    .option("--no-git-hooks", "do not install the git hooks (recorded in .tandem/config.jsonc)")
    .option(
      "--check",
      "compare what init would write; exit 0 current, 1 drift or a user-level file switching hooks off (each printed)",
    )
    .option("--dry-run", "print what would change, write nothing")
    .option(
      "--command <launcher>",
      'how hooks start Tandem, e.g. "tandem" (PATH) or "node_modules/.bin/tandem" (devDependency); default: how this tandem is installed (an absolute path only when given here), recorded in .tandem/config.jsonc',
    )
    .option("--json", "print the result as one JSON object")
    .addHelpText(
      "after",
      "\nExamples:\n  tandem init\n  tandem init --clients codex --no-git-hooks\n  tandem init --check\n",
    )
    .action((_opts: InitOptions, cmd: Command) => runInit(io, cmd.optsWithGlobals<InitOptions>()));
}
