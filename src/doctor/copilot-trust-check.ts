import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type ParseError, parse } from "jsonc-parser";
import { copilotTrust, describeCopilotTrust } from "../clients/copilot-cli/trust.js";
import type { Finding } from "./finding.js";

type Env = Readonly<Record<string, string | undefined>>;

/** `$COPILOT_HOME/config.json` (default `~/.copilot`), where Copilot keeps the folders it trusts. */
export function copilotConfigFile(env: Env): string | null {
  const home = env.COPILOT_HOME || (env.HOME ? join(env.HOME, ".copilot") : null);
  return home ? join(home, "config.json") : null;
}

function trustedFolders(file: string | null): string[] | null {
  if (!file) return null;
  try {
    // Copilot writes the file with a comment header.
    const errors: ParseError[] = [];
    const doc = parse(readFileSync(file, "utf8"), errors, { allowTrailingComma: true }) as unknown;
    const list = (doc as { trustedFolders?: unknown } | null)?.trustedFolders;
    if (errors.length > 0) return null;
    return Array.isArray(list) ? list.filter((d): d is string => typeof d === "string") : [];
  } catch {
    return null;
  }
}

/** Copilot's folder trust for the repository, as far as its config file tells (never a hard problem: see below). */
export function copilotTrustFinding(root: string, env: Env): Finding {
  const file = copilotConfigFile(env);
  const state = copilotTrust({
    root,
    trustedFolders: trustedFolders(file),
    allowAllEnv: env.COPILOT_ALLOW_ALL,
  });
  const detail = describeCopilotTrust(state, root, file ?? "~/.copilot/config.json");
  if (state === "env" || state === "listed") return { level: "ok", check: "copilot trust", detail };
  // Every client is wired by default; a person who never runs Copilot here has nothing to fix.
  return {
    level: "info",
    check: "copilot trust",
    detail,
    fix: "if you use Copilot CLI here, start `copilot` in the repository once and trust the folder (or pass --trust-folder to `copilot -p`)",
  };
}
