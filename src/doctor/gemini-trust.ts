import { existsSync, readFileSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { type ParseError, parse } from "jsonc-parser";
import { type GeminiTrust, geminiTrust } from "../core/gemini-trust.js";
import { errorMessage } from "../errors.js";
import type { Finding } from "./finding.js";

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

const physical = (p: string): string => {
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

const CHECK = "gemini trust";

/** `tandem doctor`'s line on Gemini's folder trust: an untrusted project runs none of its hooks. */
export function geminiTrustFinding(root: string, env: Env): Finding {
  const t = readGeminiTrust(root, env);
  const file = trustedFoldersFile(env);
  const add = `add \`"${physical(root)}": "TRUST_FOLDER"\` to ${file}`;
  switch (t.state) {
    case "trusted": {
      const why =
        t.via === "env"
          ? "GEMINI_CLI_TRUST_WORKSPACE=true is set in this shell"
          : t.via === "trust-off"
            ? "folder trust is off in Gemini's user settings"
            : `${file} has ${t.level} for ${t.rule}`;
      return {
        level: "ok",
        check: CHECK,
        detail: `Gemini CLI trusts this project, so it runs Tandem's hooks (${why})`,
      };
    }
    case "untrusted":
      return {
        level: "problem",
        check: CHECK,
        detail:
          t.via === "env"
            ? "GEMINI_CLI_TRUST_WORKSPACE=false or GEMINI_RESTRICTED_MODE=true is set in this shell: Gemini CLI started here runs no project hooks, Tandem's included"
            : `${file} marks this project DO_NOT_TRUST (rule ${t.rule}): Gemini CLI runs none of its hooks, Tandem's included`,
        fix: t.via === "env" ? "unset the variable before starting `gemini`" : `change that rule, or ${add}`,
      };
    case "unlisted":
      return {
        level: "problem",
        check: CHECK,
        detail: `no rule in ${file} covers this project: Gemini CLI asks when opened interactively, and headless (\`gemini -p\`) runs none of its hooks, Tandem's included`,
        fix: `open \`gemini\` here and choose to trust the folder, or ${add}`,
      };
    case "invalid":
      return {
        level: "problem",
        check: CHECK,
        detail: `Gemini CLI's trust settings cannot be read: ${t.detail}; Gemini refuses to start until they are fixed`,
        fix: `fix the file named above (in ${file} each value is TRUST_FOLDER, TRUST_PARENT or DO_NOT_TRUST)`,
      };
  }
}
