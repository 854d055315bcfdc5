import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { findNodeAtLocation, type ParseError, parse, parseTree, printParseErrorCode } from "jsonc-parser";
import type * as z from "zod/mini";
import { TandemError } from "../errors.js";
import { PROJECT_CONFIG } from "./root.js";
import { type Config, type ConfigFile, configFileSchema, DEFAULT_CONFIG } from "./schema.js";

export interface LoadedConfig {
  config: Config;
  warnings: string[];
  /** Files that were read, for messages and `doctor`. */
  files: string[];
}

type Env = Readonly<Record<string, string | undefined>>;

export function userConfigPath(env: Env): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config");
  return join(base, "tandem", "config.jsonc");
}

function lineCol(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const col = offset - before.lastIndexOf("\n");
  return `${line}:${col}`;
}

function issueLocation(text: string, path: readonly PropertyKey[]): string {
  const tree = parseTree(text);
  const segments = path.filter((p): p is string | number => typeof p !== "symbol");
  for (let n = segments.length; n >= 0 && tree; n--) {
    const node = findNodeAtLocation(tree, segments.slice(0, n));
    if (node) return lineCol(text, node.parent?.type === "property" ? node.parent.offset : node.offset);
  }
  return "1:1";
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const key = issue.path.map(String).join(".") || "(top level)";
  if (issue.code === "unrecognized_keys") {
    const keys = (issue as { keys?: string[] }).keys ?? [];
    const at = [...issue.path.map(String), keys[0] ?? ""].filter(Boolean).join(".");
    return `unknown key "${at}"`;
  }
  return `key "${key}": ${issue.message}`;
}

/** Parses one config file; a file that does not exist is `null`, anything unreadable is an error. */
export function readConfigFile(file: string): ConfigFile | null {
  // Usually absent (both the user and the project file): ask before reading, no exception.
  if (!existsSync(file)) return null;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new TandemError(`cannot read config ${file}: ${(err as Error).message}; fix its permissions.`);
  }
  const errors: ParseError[] = [];
  const data: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) {
    throw new TandemError(
      `config ${file}:${lineCol(text, first.offset)}: ${printParseErrorCode(first.error)}; fix the JSON (comments are allowed).`,
    );
  }
  const result = configFileSchema().safeParse(data ?? {});
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const path =
      issue.code === "unrecognized_keys"
        ? [...issue.path, (issue as { keys: string[] }).keys[0]!]
        : issue.path;
    throw new TandemError(
      `config ${file}:${issueLocation(text, path)}: ${describeIssue(issue)}; see the commented keys written by \`tandem init\`.`,
    );
  }
  return result.data;
}

function merge(base: Config, file: ConfigFile): Config {
  const a = file.agents ?? {};
  const s = file.subagents ?? {};
  return {
    stopRitual: a.stopRitual ?? base.stopRitual,
    requireGitFinalization: a.requireGitFinalization ?? base.requireGitFinalization,
    finalizationRoots: a.finalizationRoots ?? base.finalizationRoots,
    freshnessSeconds: a.freshnessSeconds ?? base.freshnessSeconds,
    failClosed: a.failClosed ?? base.failClosed,
    storeLockSeconds: a.storeLockSeconds ?? base.storeLockSeconds,
    worktreeRoot: s.worktreeRoot ?? base.worktreeRoot,
    clients: { ...base.clients, ...(s.clients ?? {}) },
    maxPatchBytes: s.capture?.maxPatchBytes ?? base.maxPatchBytes,
    maxDirtyBytes: s.capture?.maxDirtyBytes ?? base.maxDirtyBytes,
  };
}

function envFlag(env: Env, name: string): boolean | undefined {
  const v = env[name];
  if (v === undefined || v === "") return undefined;
  if (v === "1" || v === "true") return true;
  if (v === "0" || v === "false") return false;
  throw new TandemError(`${name}=${v} is not understood; use 1 or 0.`, 2);
}

function envPositiveInt(env: Env, name: string): number | undefined {
  const v = env[name];
  if (v === undefined || v === "") return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0)
    throw new TandemError(`${name}=${v} is not a positive whole number.`, 2);
  return n;
}

function applyEnv(config: Config, env: Env): Config {
  const ritual = env.TANDEM_STOP_RITUAL;
  if (ritual !== undefined && ritual !== "" && !["enforce", "observe", "off"].includes(ritual)) {
    throw new TandemError(`TANDEM_STOP_RITUAL=${ritual} is not understood; use enforce, observe or off.`, 2);
  }
  return {
    ...config,
    stopRitual: (ritual || config.stopRitual) as Config["stopRitual"],
    requireGitFinalization: envFlag(env, "TANDEM_REQUIRE_GIT_FINALIZATION") ?? config.requireGitFinalization,
    freshnessSeconds: envPositiveInt(env, "TANDEM_FRESHNESS") ?? config.freshnessSeconds,
    failClosed: envFlag(env, "TANDEM_FAIL_CLOSED") ?? config.failClosed,
    storeLockSeconds: envPositiveInt(env, "TANDEM_STORE_LOCK_SECONDS") ?? config.storeLockSeconds,
  };
}

/**
 * Defaults, then the user config (preferences only), then the project config
 * (what every agent of the project shares), then TANDEM_* variables for this
 * process. Filesystem authority (`finalizationRoots`) comes from the project only.
 */
export function loadConfig(root: string, env: Env): LoadedConfig {
  const warnings: string[] = [];
  const files: string[] = [];
  let config = DEFAULT_CONFIG;
  const userFile = userConfigPath(env);
  const user = readConfigFile(userFile);
  if (user) {
    files.push(userFile);
    if (user.agents?.finalizationRoots !== undefined) {
      warnings.push(
        `${userFile}: agents.finalizationRoots is ignored in the user config (only the project's .tandem/config.jsonc may grant filesystem authority); move it there.`,
      );
      user.agents = { ...user.agents, finalizationRoots: undefined };
    }
    config = merge(config, user);
  }
  const projectFile = join(root, PROJECT_CONFIG);
  const project = readConfigFile(projectFile);
  if (project) {
    files.push(projectFile);
    config = merge(config, project);
  }
  return { config: applyEnv(config, env), warnings, files };
}
