import { homedir } from "node:os";
import { join } from "node:path";
import { naturalCommand } from "../core/shell/agent-command.js";

/**
 * Gemini CLI's counterpart of Claude's allow rules (issue 26): a policy file allowing shell
 * commands that start `<cmd> task` or `<cmd> status`, so the ritual runs without "Allow execution
 * of [Shell]?" every turn. Gemini 0.61.0 has no project-scoped way to do it (decision 0031):
 * `tools.allowed` in `.gemini/settings.json` turns a narrowed `run_shell_command(…)` entry into a
 * deny of every other shell command, and this build ignores `.gemini/policies/`. So the file is the
 * user's policy directory's, `~/.gemini/policies/tandem.toml`. Its `commandPrefix` is checked per
 * part of a compound command, so `tandem task x && rm -rf y` still asks for the `rm`.
 */

type Env = Readonly<Record<string, string | undefined>>;

/** Where Gemini reads the user's policies: `$GEMINI_CLI_HOME/.gemini/policies`, else `~/.gemini/policies`. */
export function geminiPolicyFile(env: Env): string {
  return join(env.GEMINI_CLI_HOME || env.HOME || homedir(), ".gemini", "policies", "tandem.toml");
}

const MARKER = "# Written by `tandem init`; `tandem deinit` deletes it.";

/**
 * The file's whole text: the launcher's commands as agents' shells run it, and, when agents here
 * are told another command (the repository launcher of a prefix or nvm install, decision 0030),
 * that command's too, so the ritual they are told runs unprompted.
 */
export function geminiPolicyText(launcher: string, root: string, agent?: string): string {
  const cmds = [...new Set([naturalCommand(launcher, root), agent ?? naturalCommand(launcher, root)])];
  const prefixes = cmds.flatMap((cmd) => [`${cmd} task`, `${cmd} status`]);
  return [
    MARKER,
    "# Lets agents run Tandem's end-of-turn commands without asking.",
    "[[rule]]",
    'toolName = "run_shell_command"',
    `commandPrefix = [${prefixes.map((x) => JSON.stringify(x)).join(", ")}]`,
    'decision = "allow"',
    "priority = 500",
    "",
  ].join("\n");
}

/** Tandem's own policy file, which init may rewrite and deinit deletes; anything else is left alone. */
export function isOurPolicyFile(text: string): boolean {
  return text.startsWith(MARKER);
}
