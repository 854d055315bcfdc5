/**
 * The person's own settings that switch a client's hooks off (issue 37.5): `~/.claude`,
 * `~/.qwen`, `~/.gemini` (each client's `userSwitches`) and `~/.codex/config.toml` (Codex's
 * switch read on the user's file). Tandem never writes them: each is a problem with its fix.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { CODEX_USER_CONFIG } from "../clients/codex/hooks-switch.js";
import { CLIENT_NAMES, CLIENTS } from "../clients/index.js";
import { parseJson } from "../wiring/json-edit.js";
import type { Finding } from "./finding.js";

function read(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

export function userSwitchFindings(env: Readonly<Record<string, string | undefined>>): Finding[] {
  const home = env.HOME || homedir();
  const out: Finding[] = [];
  for (const name of CLIENT_NAMES) {
    const client = CLIENTS[name];
    for (const [rel, switches] of Object.entries(client.userSwitches ?? {})) {
      const file = join(home, rel);
      const text = read(file);
      if (text === null) continue;
      const parsed = parseJson(file, text);
      if (!parsed.ok || typeof parsed.value !== "object" || parsed.value === null) continue;
      const doc = parsed.value as Record<string, unknown>;
      const found = switches.flatMap((sw) => sw.switchedOff(doc).map(() => sw.key));
      if (found.length > 0) out.push(problem(client.label, file, [...new Set(found)]));
    }
  }
  const codex = join(home, CODEX_USER_CONFIG);
  const text = read(codex);
  const on = text === null ? null : (CLIENTS.codex.hookSwitch?.switchOn(text) ?? null);
  if (on) out.push(problem(CLIENTS.codex.label, codex, ["features.hooks"]));
  return out;
}

function problem(label: string, file: string, keys: string[]): Finding {
  const list = keys.join(", ");
  return {
    level: "problem",
    check: "hook switches",
    detail: `${file}: ${list} switches ${label}'s hooks off for every project, this one included: Tandem sees none of its tool calls`,
    fix: `remove ${list} from ${file} (it is your own file: Tandem does not change it), then restart ${label}`,
  };
}
