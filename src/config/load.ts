import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { TandemError } from "../errors.js";
import { applyEnv } from "./env.js";
import { inEffect, merge, withoutProjectOnly } from "./layers.js";
import { type ConfigProblem, formatConfigProblem } from "./problems.js";
import { PROJECT_CONFIG } from "./root.js";
import { type Config, type ConfigFile, DEFAULT_CONFIG } from "./schema.js";
import { type ConfigRead, readConfigText } from "./validate.js";

export interface LoadedConfig {
  config: Config;
  warnings: string[];
  /** What could not be used, in files and TANDEM_* variables; each fell back. */
  problems: ConfigProblem[];
  /** Files that were read, for messages and `doctor`. */
  files: string[];
}

type Env = Readonly<Record<string, string | undefined>>;

export function userConfigPath(env: Env): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config");
  return join(base, "tandem", "config.jsonc");
}

/**
 * Files already validated, by path and exact identity (device, inode, size, nanosecond times):
 * the resident server validates a config once per change, not once per hook (docs/server.md).
 */
const validated = new Map<string, { stamp: string; read: ConfigRead }>();

/** Reads one config file, keeping what is valid; a file that does not exist is `null`. Never throws. */
export function loadConfigFile(file: string): ConfigRead | null {
  // Usually absent (both the user and the project file): ask before reading, no exception.
  const st = statSync(file, { bigint: true, throwIfNoEntry: false });
  if (!st) return null;
  const stamp = `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  const known = validated.get(file);
  if (known?.stamp === stamp) return known.read;
  const read = readConfigFileText(file);
  if (read?.problems.every((p) => p.kind !== "unreadable")) validated.set(file, { stamp, read });
  return read;
}

function readConfigFileText(file: string): ConfigRead | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === "ENOENT") return null;
    const problem: ConfigProblem = {
      source: file,
      kind: "unreadable",
      key: "",
      line: null,
      column: null,
      problem: e.code ?? e.message,
      allowed: null,
      didYouMean: null,
      using: null,
    };
    return { data: {}, problems: [problem] };
  }
  return readConfigText(text, file);
}

/** The strict reading, for checks that must not guess: any problem is an error. */
export function readConfigFile(file: string): ConfigFile | null {
  const read = loadConfigFile(file);
  const first = read?.problems[0];
  if (first) throw new TandemError(formatConfigProblem(first));
  return read?.data ?? null;
}

function withUsing(problems: ConfigProblem[], config: Config): ConfigProblem[] {
  return problems.map((p) => {
    if (p.kind === "unknown-key")
      return { ...p, using: p.didYouMean ? inEffect(config, p.didYouMean) : null };
    return p.key ? { ...p, using: inEffect(config, p.key) } : p;
  });
}

/**
 * Defaults, then the user config (preferences only), then the project config
 * (what every agent of the project shares), then TANDEM_* variables for this
 * process. Filesystem authority (`finalizationRoots`) comes from the project only.
 * Never throws for what the files or variables hold: what cannot be used falls
 * back and is returned as a problem.
 */
export function loadConfig(root: string, env: Env): LoadedConfig {
  const warnings: string[] = [];
  const files: string[] = [];
  const problems: ConfigProblem[] = [];
  let config = DEFAULT_CONFIG;
  const userFile = userConfigPath(env);
  const user = loadConfigFile(userFile);
  if (user) {
    files.push(userFile);
    problems.push(...user.problems);
    const personal = withoutProjectOnly(user.data, userFile);
    warnings.push(...personal.warnings);
    config = merge(config, personal.data);
  }
  const projectFile = join(root, PROJECT_CONFIG);
  const project = loadConfigFile(projectFile);
  if (project) {
    files.push(projectFile);
    problems.push(...project.problems);
    config = merge(config, project.data);
  }
  const fromEnv = applyEnv(config, env);
  return {
    config: fromEnv.config,
    warnings,
    problems: [...withUsing(problems, fromEnv.config), ...fromEnv.problems],
    files,
  };
}
