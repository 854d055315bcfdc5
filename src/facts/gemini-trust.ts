import { existsSync, readFileSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { type ParseError, parse } from "jsonc-parser";
import { type GeminiTrust, geminiTrust } from "../core/trust/gemini.js";
import { errorMessage } from "../errors.js";

/** Reads what Gemini CLI decides its folder trust from (docs/clients.md §13.4); the decision is src/core/trust/gemini.ts. */

type Env = Readonly<Record<string, string | undefined>>;

/** Where Gemini keeps the user's files: `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`. */
function geminiDir(env: Env): string {
  return join(env.GEMINI_CLI_HOME || env.HOME || homedir(), ".gemini");
}

export function trustedFoldersFile(env: Env): string {
  return env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || join(geminiDir(env), "trustedFolders.json");
}

/** A JSON-with-comments file as Gemini reads it; null when absent. Throws when unreadable. */
function readJsonc(file: string): unknown {
  if (!existsSync(file)) return null;
  const errors: ParseError[] = [];
  const value: unknown = parse(readFileSync(file, "utf8"), errors, { allowTrailingComma: true });
  if (errors.length > 0) throw new Error(`${file} is not valid JSON`);
  return value;
}

export const physical = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

function folderTrustSetting(env: Env): boolean | undefined {
  const settings = readJsonc(join(geminiDir(env), "settings.json")) as {
    security?: { folderTrust?: { enabled?: unknown } };
  } | null;
  const enabled = settings?.security?.folderTrust?.enabled;
  return typeof enabled === "boolean" ? enabled : undefined;
}

function rulesOf(file: string): Record<string, string> | null {
  const value = readJsonc(file);
  if (value === null) return null;
  if (typeof value !== "object" || Array.isArray(value)) throw new Error(`${file} is not a JSON object`);
  const rules: Record<string, string> = {};
  for (const [path, level] of Object.entries(value as Record<string, unknown>))
    rules[physical(path)] = String(level);
  return rules;
}

/** Gemini's trust of the project as this machine's files and this shell's variables say. */
export function readGeminiTrust(root: string, env: Env): GeminiTrust {
  try {
    return geminiTrust({
      project: physical(root),
      trustWorkspaceEnv: env.GEMINI_CLI_TRUST_WORKSPACE,
      restrictedModeEnv: env.GEMINI_RESTRICTED_MODE,
      folderTrustEnabled: folderTrustSetting(env),
      rules: rulesOf(trustedFoldersFile(env)),
    });
  } catch (err) {
    return { state: "invalid", detail: errorMessage(err) };
  }
}

/**
 * A Gemini sub-agent works in a worktree Gemini has never seen, and headless Gemini refuses an
 * untrusted folder. The worktree is a copy of the project: it gets the project's trust, no more.
 */
export function childTrustEnv(origin: string, env: Env): Record<string, string> {
  if (env.GEMINI_CLI_TRUST_WORKSPACE !== undefined) return {};
  return readGeminiTrust(origin, env).state === "trusted" ? { GEMINI_CLI_TRUST_WORKSPACE: "true" } : {};
}
