import { PLAIN, type Printer, spanned } from "../core/printed.js";
import { shellQuote } from "../core/shell/quote.js";
import { type LoginProbe, probeLogin, projectNatural, writeProbe } from "../wiring/agent-shell.js";
import { shellQuote as q } from "../wiring/hook-command.js";
import { existingRepoLauncher, repoLauncherPath } from "../wiring/repo-launcher.js";
import { checkCommit } from "./commit-check.js";
import type { Finding } from "./finding.js";

type Env = Readonly<Record<string, string | undefined>>;

/** `bash -lc '<command> --version'`, quoted so it can be pasted as shown. */
export function loginCheck(command: string): string {
  return `bash -lc ${shellQuote(`${command} --version`)}`;
}

/** The fix when neither the launcher nor the repository launcher starts Tandem in a login shell. */
export function loginFix(command: string, repoLauncher: string, p: Printer = PLAIN): string {
  return `run ${spanned(p, "init")}: it writes ${repoLauncher}, which starts this machine's Tandem from any shell, and agents are told that instead (the ritual's allow rules name it); or put Tandem and Node on the PATH that ~/.profile or /etc/profile.d sets up (not only ~/.bashrc or nvm's lines there). Check with \`${loginCheck(command)}\`, then run ${spanned(p, "doctor")} again`;
}

/**
 * `probe` tried the launcher as agents' shells run it; `repo`, when the launcher failed and init
 * wrote the repository launcher, tried that (decision 0030).
 */
export function agentShellFinding(
  probe: LoginProbe,
  repo: LoginProbe | null,
  repoPath: string,
  p: Printer = PLAIN,
): Finding {
  const check = "agent shell";
  if (probe.works)
    return {
      level: "ok",
      check,
      detail: `agents run \`${probe.command}\`, which starts Tandem in a login shell`,
    };
  const failed = `\`${loginCheck(probe.command)}\` fails in the repository (${probe.detail})`;
  if (repo?.works)
    return {
      level: "ok",
      check,
      detail: `${failed}, so agents run ${repo.command}, which starts Tandem there`,
    };
  if (repo)
    return {
      level: "problem",
      check,
      detail: `${failed}, and so does the repository launcher ${repo.command} (${repo.detail}): an agent's shell tool cannot run the ritual or the commands Tandem suggests`,
      fix: `re-run ${spanned(p, "init")} from the Tandem and Node you use now: it rewrites that launcher, then run ${spanned(p, "doctor")} again`,
    };
  return {
    level: "problem",
    check,
    detail: `${failed}, so an agent's shell tool cannot run the ritual or the commands Tandem suggests`,
    fix: loginFix(probe.command, repoPath, p),
  };
}

/**
 * Probes the command agents are told to run, as the client's shell would, and records the answer
 * for hooks; then a commit as that shell makes it.
 */
export function checkAgentShell(root: string, stateDir: string, env: Env, p: Printer): Finding[] {
  // Without a recorded launcher the wiring checks already say to run `tandem init`.
  const natural = projectNatural(root);
  if (!natural) return [];
  const probe = probeLogin(natural, root, env as NodeJS.ProcessEnv);
  writeProbe(stateDir, probe);
  const path = existingRepoLauncher(stateDir);
  const repo = probe.works || !path ? null : probeLogin(q(path), root, env as NodeJS.ProcessEnv);
  // The git hooks start Tandem with the same command (decision 0049): a commit shows whether it does.
  return [agentShellFinding(probe, repo, repoLauncherPath(stateDir), p), ...checkCommit(root, env, p)];
}
