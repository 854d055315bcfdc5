/**
 * The person's own settings that switch a client's hooks off (issue 37.5): each client's
 * `userSwitches` (`~/.claude`, `~/.qwen`, `~/.gemini`, `~/.copilot`, where the client's own
 * variables put them) and the user copy of a `hookSwitch` file (`~/.codex/config.toml`, `$CODEX_HOME`). Tandem never writes them: each is
 * a problem with its fix, for `doctor` and `init --check`.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { CLIENT_NAMES, CLIENTS } from "../clients/index.js";
import { userSwitchPath } from "../clients/switches.js";
import { parseJson } from "../wiring/json-edit.js";
import type { Finding } from "./finding.js";

type Env = Readonly<Record<string, string | undefined>>;

function read(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

export function userSwitchFindings(env: Env): Finding[] {
  const home = env.HOME || homedir();
  const out: Finding[] = [];
  for (const name of CLIENT_NAMES) {
    const client = CLIENTS[name];
    for (const entry of client.userSwitches ?? []) {
      const file = userSwitchPath(entry, env, home);
      const text = read(file);
      if (text === null) continue;
      const parsed = parseJson(file, text);
      if (!parsed.ok || typeof parsed.value !== "object" || parsed.value === null) continue;
      const doc = parsed.value as Record<string, unknown>;
      const found = entry.switches.flatMap((sw) => sw.switchedOff(doc).map(() => sw.key));
      if (found.length > 0) out.push(problem(client.label, file, [...new Set(found)]));
    }
  }
  // A client whose own settings file (not JSON) has a switch: its spec says where the person's copy is.
  for (const name of CLIENT_NAMES) {
    const sw = CLIENTS[name].hookSwitch;
    if (!sw?.user) continue;
    const dir = env[sw.user.envDir];
    const file = dir ? join(dir, sw.user.fileInEnvDir) : join(home, sw.user.file);
    const text = read(file);
    if (text !== null && sw.switchOn(text)) out.push(problem(CLIENTS[name].label, file, [...sw.user.keys]));
  }
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
