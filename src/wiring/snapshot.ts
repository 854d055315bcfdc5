import { accessSync, constants, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CODEX_LOCAL_RULES, CODEX_RULES } from "../clients/codex/rules.js";
import type { ClientName } from "../clients/index.js";
import { CLIENTS } from "../clients/index.js";
import { PROJECT_CONFIG } from "../config/root.js";
import { GIT_HOOK_NAMES, type GitHookName } from "../core/git/hook-names.js";
import { TandemError } from "../errors.js";
import { git } from "../git/run.js";
import { LOCAL_SETTINGS } from "./allow-rules.js";
import { geminiPolicyFile, legacyPolicyFile } from "./gemini-policy.js";

/** The current content of every file init or deinit may touch; the planners read nothing else. */
export interface FileState {
  path: string;
  text: string | null;
  executable: boolean;
}

export interface Snapshot {
  root: string;
  settings: Partial<Record<ClientName, FileState>>;
  /** A `files`-layout client's hook files after its settings file (src/clients/owned-file.ts). */
  moreHookFiles?: Partial<Record<ClientName, FileState[]>>;
  /** `.claude/settings.local.json`, read when Claude Code is wired (it may get allow rules). */
  claudeLocal?: FileState;
  /** `.codex/rules/tandem.rules`, read when Codex is wired. */
  codexRules?: FileState;
  /** `.codex/rules/tandem-local.rules` (this clone's rule), read when Codex is wired. */
  codexLocal?: FileState;
  /** This repository's own `~/.gemini/policies/tandem-<name>-<key>.toml`, read when Gemini CLI is wired. */
  geminiPolicy?: FileState;
  /**
   * The shared `~/.gemini/policies/tandem.toml` of an older Tandem (decision 0048): init removes it
   * when it is this repository's, and nothing else touches it, so it is neither recorded nor healed.
   */
  geminiLegacy?: FileState;
  /** Each wired client's file that can switch its hooks off (ClientSpec.hookSwitch). */
  switches?: Partial<Record<ClientName, FileState>>;
  /** Each wired client's JSON settings files with switches that no other plan writes (`switchFilePaths`). */
  switchFiles?: Partial<Record<ClientName, FileState[]>>;
  config: FileState;
  /** Null with --no-git-hooks. */
  gitHooks: { dir: string; files: Record<GitHookName, FileState> } | null;
  /** The initialised submodules' own hooks (`withSubmoduleHooks`, src/wiring/submodules.ts). */
  submoduleHooks?: { dir: string; files: Record<GitHookName, FileState> }[];
}

export function readState(path: string): FileState {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { path, text: null, executable: false };
    throw new TandemError(
      `cannot read ${path} (${code ?? (err as Error).message}); fix the path or its permissions and re-run.`,
    );
  }
  let executable = true;
  try {
    accessSync(path, constants.X_OK);
  } catch {
    executable = false;
  }
  return { path, text, executable };
}

/**
 * The hooks directory git actually runs from: `--git-path hooks` honours core.hooksPath (a
 * relative one is taken from the work tree top, `~` expanded) and points linked worktrees at the
 * shared directory. Its output is relative to where git ran, hence the resolve against the root.
 */
export function gitHooksDir(root: string): string {
  const out = git(root, ["rev-parse", "--git-path", "hooks"]).trim();
  return resolve(root, out);
}

/** Where a `files`-layout client's hook files go; they do not depend on the launcher. */
export function hookFilePaths(name: ClientName): string[] {
  return (CLIENTS[name].hookFiles?.("tandem", "tandem") ?? []).map((f) => f.path);
}

/**
 * A client's project files whose keys can switch its hooks off (ClientSpec.settingsSwitches) and
 * that no other plan writes: not its settings file, nor Claude's local file (its allow rules' plan).
 */
export function switchFilePaths(name: ClientName): string[] {
  const planned = new Set([CLIENTS[name].settingsFile, ...(name === "claude-code" ? [LOCAL_SETTINGS] : [])]);
  return Object.keys(CLIENTS[name].settingsSwitches ?? {}).filter((p) => !planned.has(p));
}

export function readSnapshot(
  root: string,
  clients: readonly ClientName[],
  withGitHooks: boolean,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Snapshot {
  const settings: Partial<Record<ClientName, FileState>> = {};
  const moreHookFiles: Partial<Record<ClientName, FileState[]>> = {};
  const switches: Partial<Record<ClientName, FileState>> = {};
  const switchFiles: Partial<Record<ClientName, FileState[]>> = {};
  for (const name of clients) {
    const more = switchFilePaths(name);
    if (more.length > 0) switchFiles[name] = more.map((p) => readState(join(root, p)));
    settings[name] = readState(join(root, CLIENTS[name].settingsFile));
    const hookSwitch = CLIENTS[name].hookSwitch;
    if (hookSwitch) switches[name] = readState(join(root, hookSwitch.file));
    const rest = hookFilePaths(name).filter((p) => p !== CLIENTS[name].settingsFile);
    if (rest.length > 0) moreHookFiles[name] = rest.map((p) => readState(join(root, p)));
  }
  let gitHooks: Snapshot["gitHooks"] = null;
  if (withGitHooks) {
    const dir = gitHooksDir(root);
    const files = Object.fromEntries(GIT_HOOK_NAMES.map((n) => [n, readState(join(dir, n))]));
    gitHooks = { dir, files: files as Record<GitHookName, FileState> };
  }
  const claudeLocal = settings["claude-code"] ? { claudeLocal: readState(join(root, LOCAL_SETTINGS)) } : {};
  const codexRules = settings.codex
    ? {
        codexRules: readState(join(root, CODEX_RULES)),
        codexLocal: readState(join(root, CODEX_LOCAL_RULES)),
      }
    : {};
  const gemini = settings["gemini-cli"]
    ? { geminiPolicy: readState(geminiPolicyFile(env, root)), geminiLegacy: readState(legacyPolicyFile(env)) }
    : {};
  return {
    root,
    settings,
    moreHookFiles,
    ...claudeLocal,
    ...codexRules,
    ...gemini,
    switches,
    switchFiles,
    config: readState(join(root, PROJECT_CONFIG)),
    gitHooks,
  };
}
