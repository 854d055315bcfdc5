import { accessSync, constants, existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { type ParseError, parse } from "jsonc-parser";
import type { ClientName } from "../clients/index.js";
import { CLIENT_NAMES, CLIENTS } from "../clients/index.js";
import { launcherWords } from "../clients/launcher-words.js";
import { isOwnedHookFile, ownedCommands } from "../clients/owned-file.js";
import type { TrustMechanism } from "../clients/types.js";
import { PLAIN, type Printer, spanned } from "../core/printed.js";
import { trustLineFor } from "../core/trust/relevance.js";
import { errorMessage } from "../errors.js";
import { agentCommandFor } from "../wiring/agent-launch.js";
import {
  checkCodexTrust,
  defaultTrustDeps,
  describeTrust,
  findOnPath,
  type TrustDeps,
} from "../wiring/codex-trust.js";
import { parseOurCommand } from "../wiring/hook-command.js";
import { unanchored } from "../wiring/launcher.js";
import { readRecordedInit } from "../wiring/options.js";
import { type FilePlan, planInit } from "../wiring/plan.js";
import { driftLines } from "../wiring/report.js";
import { readSnapshot } from "../wiring/snapshot.js";
import { withSubmoduleHooks } from "../wiring/submodules.js";
import { copilotTrustFinding } from "./copilot-trust-check.js";
import type { Finding } from "./finding.js";
import { geminiTrustFinding } from "./gemini-trust.js";

type Env = Readonly<Record<string, string | undefined>>;

/** Every command string anywhere in a settings file (`command`; `bash` in Copilot's native file). */
function commandsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) commandsIn(v, out);
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if ((k === "command" || k === "bash") && typeof v === "string") out.push(v);
      else commandsIn(v, out);
    }
  }
  return out;
}

/** The launcher part of our hook commands (`<launcher> hook <client> <event>`), as init records it. */
function launchersOf(text: string | null): string[] {
  if (text === null) return [];
  if (isOwnedHookFile(text)) return ours(ownedCommands(text));
  // Settings files may hold comments and trailing commas, as init and deinit accept (issue 13).
  const errors: ParseError[] = [];
  const parsed: unknown = parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) return [];
  return ours(commandsIn(parsed));
}

function ours(commands: readonly string[]): string[] {
  return commands
    .filter((c) => parseOurCommand(c) !== null)
    .map((c) => unanchored(c.replace(/\s+hook\s+\S+\s+\S+\s*$/, "")));
}

/** Why the launcher cannot start Tandem from the repository, or null when it can. */
export function launcherProblem(launcher: string, root: string, env: Env): string | null {
  const words = launcherWords(launcher);
  const [first, second] = words;
  if (!first) return "it is empty";
  const exe = first.includes("/") ? (isAbsolute(first) ? first : join(root, first)) : findOnPath(first, env);
  if (!exe) return `\`${first}\` is not on PATH`;
  try {
    accessSync(exe, constants.X_OK);
  } catch {
    return `${exe} does not exist or is not executable`;
  }
  if (second && /\.c?js$/.test(second)) {
    const script = isAbsolute(second) ? second : join(root, second);
    if (!existsSync(script)) return `${script} does not exist (moved or uninstalled?)`;
  }
  return null;
}

function wiredClients(root: string): { clients: ClientName[]; launchers: Set<string> } {
  const snapshot = readSnapshot(root, CLIENT_NAMES, false);
  const launchers = new Set<string>();
  const clients = CLIENT_NAMES.filter((name) => {
    const found = launchersOf(snapshot.settings[name]?.text ?? null);
    for (const l of found) launchers.add(l);
    return found.length > 0;
  });
  return { clients, launchers };
}

/** What `tandem doctor` compares against: the recorded choice, else what the files hold. */
interface Expected {
  launcher: string;
  /** Whether the launcher comes from `.tandem/config.jsonc` (then plain `tandem init` restores it). */
  recorded: boolean;
  clients: ClientName[];
  gitHooks: boolean;
}

function expectedWiring(root: string, wired: ClientName[], launchers: Set<string>): Expected {
  const record = readRecordedInit(root);
  // Clients wired by hand or by an earlier `init --clients` are still checked.
  const clients = CLIENT_NAMES.filter((n) => wired.includes(n) || record?.clients?.includes(n));
  const gitHooks = record?.gitHooks ?? true;
  if (record?.command) return { launcher: record.command, recorded: true, clients, gitHooks };
  return { launcher: [...launchers][0]!, recorded: false, clients, gitHooks };
}

function initFix(e: Expected, p: Printer): string {
  return e.recorded
    ? `run ${spanned(p, "init")}: it rewires with the launcher .tandem/config.jsonc records (\`${e.launcher}\`)`
    : `run ${spanned(p, "init", "--command", e.launcher)} (it also records that choice in .tandem/config.jsonc)`;
}

/** Each plan's lines under its own heading: a client's files may live in a `hooks/` folder too. */
function driftFindings(root: string, plans: FilePlan[], e: Expected, p: Printer): Finding[] {
  return plans.flatMap((plan) =>
    driftLines(root, [plan]).map((line) => ({
      level: "problem" as const,
      check: plan.kind === "git-hook" ? "git hooks" : "client hooks",
      detail: line,
      fix: initFix(e, p),
    })),
  );
}

function launcherFinding(root: string, env: Env, e: Expected, p: Printer): Finding {
  const problem = launcherProblem(e.launcher, root, env);
  if (!problem)
    return { level: "ok", check: "hook command", detail: `the hooks call \`${e.launcher}\`, which resolves` };
  const fix = e.recorded
    ? `install Tandem so that \`${e.launcher}\` starts it (README "Install"), or record another launcher with ${spanned(p, "init", "--command", { slot: "LAUNCHER" })}`
    : `run ${spanned(p, "init", "--command", { slot: "LAUNCHER" })} with a launcher that starts Tandem here (e.g. \`tandem\` after \`npm install -g\`)`;
  return {
    level: "problem",
    check: "hook command",
    detail: `the hooks call \`${e.launcher}\`, but ${problem}`,
    fix,
  };
}

/**
 * Client and git hook wiring compared with what `tandem init` would write for the choice
 * `.tandem/config.jsonc` records, the launcher they call, and Codex trust (issue 7 item 3, issue 13).
 */
export async function checkWiring(
  root: string,
  env: Env,
  trustDeps: TrustDeps = defaultTrustDeps,
  stateDir?: string,
  sessionClients: readonly string[] = [],
  /** Doctor's reader is a person: the fixes are spelled as their terminal starts Tandem. */
  p: Printer = PLAIN,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const { clients: wired, launchers } = wiredClients(root);
  for (const name of CLIENT_NAMES.filter((n) => !wired.includes(n))) {
    findings.push({
      level: "info",
      check: "client hooks",
      detail: `${name}: not wired (${CLIENTS[name].settingsFile} has no Tandem hooks)`,
      fix: `if you use ${name} here, run ${spanned(p, "init", "--clients", name)}`,
    });
  }
  if (wired.length === 0) {
    findings.push({
      level: "problem",
      check: "init",
      detail:
        "no client calls Tandem's hooks here: init has not run in this repository (or deinit removed them)",
      fix: `run ${spanned(p, "init")} (once per clone: the git hooks it installs are not committed)`,
    });
    return findings;
  }
  const expected = expectedWiring(root, wired, launchers);
  // With a record, each file that differs from it is listed below; without one, say they disagree.
  if (!expected.recorded && launchers.size > 1) {
    findings.push({
      level: "problem",
      check: "client hooks",
      detail: `hooks start Tandem in ${launchers.size} different ways: ${[...launchers].join(" | ")}`,
      fix: `run ${spanned(p, "init", "--command", { slot: "LAUNCHER" })} with the one launcher they should all use`,
    });
  }
  findings.push(launcherFinding(root, env, expected, p));
  let plans: FilePlan[];
  try {
    const snapshot = withSubmoduleHooks(readSnapshot(root, expected.clients, expected.gitHooks, env));
    // The allow rules must name the command agents are told, which the state directory decides.
    const agent = stateDir === undefined ? undefined : agentCommandFor(root, stateDir, expected.launcher);
    plans = planInit(snapshot, expected.launcher, undefined, agent).filter((p) => p.kind !== "config");
  } catch (err) {
    findings.push({
      level: "problem",
      check: "client hooks",
      detail: errorMessage(err),
      fix: `fix the file named above, then run ${spanned(p, "doctor")} again`,
    });
    return findings;
  }
  const drift = driftFindings(root, plans, expected, p);
  findings.push(...drift);
  if (drift.length === 0)
    findings.push({
      level: "ok",
      check: "client hooks",
      detail: `${expected.clients.join(", ")}${expected.gitHooks ? " and the git hooks" : ""} are wired and current`,
    });
  for (const name of expected.clients) {
    const trust = CLIENTS[name].trust;
    if (!trust) continue;
    const line = await TRUST_CHECKS[trust](root, env, trustDeps);
    findings.push(
      trustLineFor(line, CLIENTS[name].label, {
        installed: findOnPath(CLIENTS[name].processName, env) !== null,
        hasSessions: sessionClients.includes(name),
      }),
    );
  }
  return findings;
}

/** Each trust mechanism's check (ClientSpec.trust). */
const TRUST_CHECKS: Record<
  TrustMechanism,
  (root: string, env: Env, deps: TrustDeps) => Promise<Finding> | Finding
> = {
  "hook-review": trustFinding,
  "folder-trust-config": (root, env) => copilotTrustFinding(root, env),
  "trusted-folders": (root, env) => geminiTrustFinding(root, env),
};

async function trustFinding(root: string, env: Env, deps: TrustDeps): Promise<Finding> {
  const report = await checkCodexTrust(root, env, deps);
  const text = describeTrust(report);
  const ok = report.state === "listed" && report.pending.length === 0;
  if (ok) return { level: "ok", check: "codex trust", detail: text };
  if (report.state === "no-codex") return { level: "info", check: "codex trust", detail: text };
  return {
    level: "problem",
    check: "codex trust",
    detail: text.replace(/; open .*$/, ""),
    fix: "open `codex` in the project and approve Tandem's hooks with /hooks",
  };
}
