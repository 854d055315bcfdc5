import type { ClientName } from "../clients/index.js";
import { type InitFile, initSchema } from "../config/schema.js";
import { applyJsonOps, parseJson } from "./json-edit.js";

/** The `init` key of `.tandem/config.jsonc`: how the project's wiring was made. */
export interface InitRecord {
  command?: string;
  clients: ClientName[];
  gitHooks: boolean;
}

/** What the config file records, or null when it has no valid `init` (or cannot be read). */
export function recordedInit(text: string | null): InitFile | null {
  if (text === null) return null;
  const parsed = parseJson("config", text);
  if (!parsed.ok || typeof parsed.value !== "object" || parsed.value === null) return null;
  const init = initSchema().safeParse((parsed.value as { init?: unknown }).init);
  return init.success && init.data ? init.data : null;
}

/** Key order fixed, so equal records print equal. */
export function recordJson(r: InitRecord): string {
  return JSON.stringify({ command: r.command, clients: r.clients, gitHooks: r.gitHooks });
}

/** `"init": {...}` as the template's first member. */
export function templateInit(r: InitRecord): string {
  return `  // How \`tandem init\` wires this project; \`init --check\`, \`doctor\` and a re-run of \`init\` keep it.
  "init": ${recordJson(r)},`;
}

/** The config text with `init` set to the record; null when it already holds it. */
export function withRecord(text: string, r: InitRecord): { text: string; change: string } | null {
  if (!parseJson("config", text).ok) return null; // doctor reports a broken config; init keeps it
  const before = recordedInit(text);
  const want = recordJson(r);
  if (before && recordJson(before as InitRecord) === want) return null;
  const change = before
    ? `init is ${recordJson(before as InitRecord)}, want ${want}`
    : `init missing (${want})`;
  return { text: applyJsonOps(text, [{ op: "set", path: ["init"], value: JSON.parse(want) }]), change };
}
