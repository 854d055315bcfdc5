import type { ClientName } from "../clients/index.js";
import { CLIENTS } from "../clients/index.js";
import type { FilePlan } from "./file-plan.js";
import { applyJsonOps, parseJson } from "./json-edit.js";
import { switchesOff } from "./settings-json.js";
import type { FileState } from "./snapshot.js";

/**
 * A client's JSON settings file Tandem does not otherwise write (Copilot's
 * `.github/copilot/settings.json`, issue 37.5): never created nor removed, only its switches
 * (ClientSpec.settingsSwitches) taken out, every other byte as found. Pure.
 */
export function switchFilePlan(name: ClientName, state: FileState, rel: string): FilePlan {
  const client = CLIENTS[name];
  const base = { path: state.path, kind: "switch" as const, client: name, executable: false };
  // `after: null` keeps it out of init's summary and the healer's writes: it is the project's file.
  const none: FilePlan = { ...base, action: "unchanged", after: null, changes: [], summary: "" };
  if (state.text === null) return none;
  const parsed = parseJson(state.path, state.text);
  if (!parsed.ok || typeof parsed.value !== "object" || parsed.value === null || Array.isArray(parsed.value))
    return none;
  const off = switchesOff(parsed.value as Record<string, unknown>, client.settingsSwitches?.[rel] ?? []);
  if (off.ops.length === 0) return none;
  return {
    ...base,
    action: "update",
    after: applyJsonOps(state.text, off.ops),
    changes: off.changes.map((c) => c.detail),
    summary: `switched ${client.label}'s hooks back on`,
  };
}
