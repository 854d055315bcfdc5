import { claudeCode } from "./claude-code/spec.js";
import { codex } from "./codex/spec.js";
import { copilotCli } from "./copilot-cli/spec.js";
import { cursor } from "./cursor/spec.js";
import { geminiCli } from "./gemini-cli/spec.js";
import type { ClientName, ClientSpec } from "./types.js";

/** Every supported client. Adding a client means adding its module here. */
export const CLIENTS: Readonly<Record<ClientName, ClientSpec>> = {
  "claude-code": claudeCode,
  codex,
  cursor,
  "copilot-cli": copilotCli,
  "gemini-cli": geminiCli,
};

export const CLIENT_NAMES = Object.keys(CLIENTS) as ClientName[];

export function clientByName(name: string): ClientSpec | null {
  return Object.hasOwn(CLIENTS, name) ? CLIENTS[name as ClientName] : null;
}

/** "A, B and C": every client's label, for help texts that must not go stale when one is added. */
export function clientLabels(): string {
  const labels = Object.values(CLIENTS).map((c) => c.label);
  return labels.length < 2 ? labels.join("") : `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}`;
}

/** The `--clients` option's help, from the registry. */
export function clientsOptionHelp(): string {
  return `comma-separated: ${CLIENT_NAMES.join(",")} (default: all ${CLIENT_NAMES.length})`;
}
