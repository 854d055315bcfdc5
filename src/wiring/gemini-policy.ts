import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join } from "node:path";
import { naturalCommand } from "../core/shell/agent-command.js";

/** node:crypto on first use: loading it costs every hook and command a few ms. */
const crypto = () => process.getBuiltinModule("node:crypto");

/**
 * Gemini CLI's counterpart of Claude's allow rules (issue 26): a policy file allowing shell
 * commands that start `<cmd> task` or `<cmd> status`, so the ritual runs without "Allow execution
 * of [Shell]?" every turn. Gemini 0.61.0 has no project-scoped way to do it (decision 0031):
 * `tools.allowed` in `.gemini/settings.json` turns a narrowed `run_shell_command(…)` entry into a
 * deny of every other shell command, and this build ignores `.gemini/policies/`. So the file is in
 * the user's policy directory, one per repository (decision 0048): `tandem-<name>-<key>.toml`, keyed
 * by the work tree's physical path, so two repositories never write each other's rule. Its
 * `commandPrefix` is checked per part of a compound command, so `tandem task x && rm -rf y` still
 * asks for the `rm`.
 */

type Env = Readonly<Record<string, string | undefined>>;

/** Where Gemini reads the user's policies: `$GEMINI_CLI_HOME/.gemini/policies`, else `~/.gemini/policies`. */
export function geminiPolicyDir(env: Env): string {
  return join(env.GEMINI_CLI_HOME || env.HOME || homedir(), ".gemini", "policies");
}

/** The work tree as the file system names it, so every way of reaching it gets one key. */
export function physicalRoot(root: string): string {
  try {
    return realpathSync.native(root);
  } catch {
    return root;
  }
}

/** This repository's file name (pure): readable name first, then a key no other path shares. */
export function policyFileName(physical: string): string {
  const key = crypto().createHash("sha256").update(physical).digest("hex").slice(0, 12);
  const name =
    basename(physical)
      .replace(/[^A-Za-z0-9._-]+/g, "_")
      .slice(0, 40) || "repo";
  return `tandem-${name}-${key}.toml`;
}

/** The repository's own policy file. */
export function geminiPolicyFile(env: Env, root: string): string {
  return join(geminiPolicyDir(env), policyFileName(physicalRoot(root)));
}

/** The one file every repository shared before decision 0048, migrated away by `init`. */
export function legacyPolicyFile(env: Env): string {
  return join(geminiPolicyDir(env), "tandem.toml");
}

const MARKER = "# Written by `tandem init`; `tandem deinit` deletes it.";
const FOR = "# Repository: ";

/** The commands agents here may be told: the launcher as their shells run it, and `agent`. */
export function policyCommands(launcher: string, root: string, agent?: string): string[] {
  return [...new Set([naturalCommand(launcher, root), agent ?? naturalCommand(launcher, root)])];
}

/**
 * The file's whole text: the launcher's commands as agents' shells run it, and, when agents here
 * are told another command (the repository launcher of a prefix or nvm install, decision 0030),
 * that command's too, so the ritual they are told runs unprompted. It names the repository it
 * serves, so a person (and `doctor`) can tell whose each file is.
 */
export function geminiPolicyText(launcher: string, root: string, agent?: string): string {
  const prefixes = policyCommands(launcher, root, agent).flatMap((cmd) => [`${cmd} task`, `${cmd} status`]);
  return [
    MARKER,
    `${FOR}${root}`,
    "# Lets agents run Tandem's end-of-turn commands there without asking.",
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

/** The repository a policy file of ours names; null for the shared file, which names none. */
export function policyRepository(text: string): string | null {
  const line = text.split("\n").find((l) => l.startsWith(FOR));
  return line === undefined ? null : line.slice(FOR.length);
}

/** The prefixes a policy file allows (its `commandPrefix` list); empty when it has none we read. */
export function allowedPrefixes(text: string): string[] {
  const line = text.split("\n").find((l) => l.startsWith("commandPrefix = ["));
  if (!line) return [];
  try {
    const list: unknown = JSON.parse(line.slice("commandPrefix = ".length));
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/**
 * Whether the shared file of an older Tandem is this repository's to remove: ours, and allowing
 * nothing but commands agents here are told. One naming another repository's launcher is that
 * repository's, and stays until its own `init` or `deinit` moves it (decision 0048).
 */
export function legacyIsMine(text: string, commands: readonly string[]): boolean {
  if (!isOurPolicyFile(text) || policyRepository(text) !== null) return false;
  const mine = new Set(commands.flatMap((c) => [`${c} task`, `${c} status`]));
  const allowed = allowedPrefixes(text);
  return allowed.length > 0 && allowed.every((p) => mine.has(p));
}

/**
 * The Gemini home a recorded policy file lives in, or null for any other file: the healer reads the
 * file init wrote, whatever `GEMINI_CLI_HOME` the process that heals was started with.
 */
export function policyHomeOf(path: string): string | null {
  const m = /^(.*)\/\.gemini\/policies\/tandem[^/]*\.toml$/.exec(path);
  return m ? m[1]! : null;
}
