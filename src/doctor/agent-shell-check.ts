import { shellQuote } from "../core/shell-quote.js";
import { type LoginProbe, probeLogin, projectNatural, writeProbe } from "../facts/agent-shell.js";
import { pinnedLauncher } from "../init/hook-command.js";
import type { Finding } from "./finding.js";

type Env = Readonly<Record<string, string | undefined>>;

/** `bash -lc '<command> --version'`, quoted so it can be pasted as shown. */
export function loginCheck(command: string): string {
  return `bash -lc ${shellQuote(`${command} --version`)}`;
}

/** The fix for a command a login shell cannot run: where PATH (and Node) must be set up. */
export function loginFix(command: string, fallback: string): string {
  return `make \`${command}\` start Tandem in a login shell, as Codex's shell tool starts: put Tandem and Node on the PATH that ~/.profile or /etc/profile.d sets up (not only ~/.bashrc or nvm's lines there), or run \`tandem init --command '<a launcher that works there>'\`; check with \`${loginCheck(command)}\`, then run \`tandem doctor\` again. Until then agents on this machine are told to run \`${fallback}\``;
}

export function agentShellFinding(probe: LoginProbe, fallback: string): Finding {
  if (probe.works) {
    return {
      level: "ok",
      check: "agent shell",
      detail: `agents run \`${probe.command}\`, which starts Tandem in a login shell`,
    };
  }
  return {
    level: "problem",
    check: "agent shell",
    detail: `\`${loginCheck(probe.command)}\` fails in the repository (${probe.detail}), so an agent's shell tool cannot run the ritual or the commands Tandem suggests`,
    fix: loginFix(probe.command, fallback),
  };
}

/** Probes the command agents are told to run, as the client's shell would, and records the answer for hooks. */
export function checkAgentShell(root: string, stateDir: string, env: Env): Finding[] {
  // Without a recorded launcher the wiring checks already say to run `tandem init`.
  const natural = projectNatural(root);
  if (!natural) return [];
  const probe = probeLogin(natural, root, env as NodeJS.ProcessEnv);
  writeProbe(stateDir, probe);
  return [agentShellFinding(probe, pinnedLauncher())];
}
