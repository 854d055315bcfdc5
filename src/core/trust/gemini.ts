import { isInside } from "../paths/lexical.js";

/**
 * Whether Gemini CLI trusts a project, and so runs its hooks (docs/clients.md §13.4), as a pure
 * function of what Gemini reads: its environment switches, the user's `security.folderTrust.enabled`
 * and the rules of `trustedFolders.json`. It mirrors Gemini 0.61.0's own check.
 */

export type GeminiTrustLevel = "TRUST_FOLDER" | "TRUST_PARENT" | "DO_NOT_TRUST";

export interface GeminiTrustInput {
  /** The project, physical and absolute. */
  project: string;
  /** `GEMINI_CLI_TRUST_WORKSPACE` and `GEMINI_RESTRICTED_MODE` as set for the `gemini` started here. */
  trustWorkspaceEnv: string | undefined;
  restrictedModeEnv: string | undefined;
  /** `security.folderTrust.enabled` of the user's settings (absent: on). */
  folderTrustEnabled: boolean | undefined;
  /** The trusted folders file's rules with physical paths, or null when the file is absent. */
  rules: Readonly<Record<string, string>> | null;
}

export type GeminiTrust =
  | { state: "trusted"; via: "env" | "trust-off" | "rule"; rule?: string; level?: GeminiTrustLevel }
  | { state: "untrusted"; via: "env" | "rule"; rule?: string }
  /** No rule covers the project: interactive Gemini asks; headless Gemini runs no project hooks. */
  | { state: "unlisted" }
  | { state: "invalid"; detail: string };

const LEVELS: readonly string[] = ["TRUST_FOLDER", "TRUST_PARENT", "DO_NOT_TRUST"];

function dirname(path: string): string {
  const cut = path.replace(/\/+$/, "").lastIndexOf("/");
  return cut <= 0 ? "/" : path.slice(0, cut);
}

export function geminiTrust(input: GeminiTrustInput): GeminiTrust {
  if (input.restrictedModeEnv === "true" || input.trustWorkspaceEnv === "false")
    return { state: "untrusted", via: "env" };
  if (input.trustWorkspaceEnv === "true") return { state: "trusted", via: "env" };
  if (input.folderTrustEnabled === false) return { state: "trusted", via: "trust-off" };
  const rules = Object.entries(input.rules ?? {});
  const bad = rules.find(([, level]) => !LEVELS.includes(level));
  // Gemini refuses to start on such a file, so it decides nothing either.
  if (bad) return { state: "invalid", detail: `"${bad[0]}" has the unknown level "${bad[1]}"` };
  // The longest rule path that covers the project wins; TRUST_PARENT covers its parent directory.
  let best: [string, GeminiTrustLevel] | null = null;
  for (const [path, level] of rules) {
    const covered = level === "TRUST_PARENT" ? dirname(path) : path;
    if (!isInside(covered, input.project)) continue;
    if (!best || path.length > best[0].length) best = [path, level as GeminiTrustLevel];
  }
  if (!best) return { state: "unlisted" };
  if (best[1] === "DO_NOT_TRUST") return { state: "untrusted", via: "rule", rule: best[0] };
  return { state: "trusted", via: "rule", rule: best[0], level: best[1] };
}
