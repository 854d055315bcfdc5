import { claudeCode } from "./claude-code/spec.js";
import { cline } from "./cline/spec.js";
import { codex } from "./codex/spec.js";
import { copilotCli } from "./copilot-cli/spec.js";
import { cursor } from "./cursor/spec.js";
import { geminiCli } from "./gemini-cli/spec.js";
import { opencode } from "./opencode/spec.js";
import { qwenCode } from "./qwen-code/spec.js";
import type { ClientSpec } from "./types.js";

/**
 * The client registry: every supported client, in the order help texts and docs list them.
 * Adding a client is its folder and one entry here; `ClientName` and every list derive from this.
 */
const REGISTRY = [claudeCode, codex, cursor, copilotCli, geminiCli, cline, qwenCode, opencode] as const;

export type ClientName = (typeof REGISTRY)[number]["name"];

/** Every client's name; a non-empty tuple, so schema enums can be built from it. */
export const CLIENT_NAMES = REGISTRY.map((c) => c.name) as [ClientName, ...ClientName[]];

export const CLIENTS: Readonly<Record<ClientName, ClientSpec<ClientName>>> = Object.fromEntries(
  REGISTRY.map((c) => [c.name, c]),
) as Record<ClientName, ClientSpec<ClientName>>;

export function clientByName(name: string): ClientSpec<ClientName> | null {
  return Object.hasOwn(CLIENTS, name) ? CLIENTS[name as ClientName] : null;
}

export function isClientName(name: string): name is ClientName {
  return Object.hasOwn(CLIENTS, name);
}

/** "A, B and C": every client's label, for help texts that must not go stale when one is added. */
export function clientLabels(): string {
  const labels = REGISTRY.map((c) => c.label);
  return labels.length < 2 ? labels.join("") : `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}`;
}

/** The `--clients` option's help, from the registry. */
export function clientsOptionHelp(): string {
  return `comma-separated: ${CLIENT_NAMES.join(",")} (default: all ${CLIENT_NAMES.length})`;
}

/** `a|b|c`: the client argument of `tandem hook`'s usage line. */
export function clientAlternatives(): string {
  return CLIENT_NAMES.join("|");
}

/** `"a", "b" or "c"` (with `last` null: `"a", "b", "c"`), for messages that list the accepted names. */
export function quotedNames(names: readonly string[], last: string | null = "or"): string {
  const q = names.map((n) => `"${n}"`);
  if (last === null || q.length < 2) return q.join(", ");
  return `${q.slice(0, -1).join(", ")} ${last} ${q.at(-1)}`;
}
