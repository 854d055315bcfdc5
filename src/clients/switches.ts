/**
 * Builders for the hook switches clients declare in their specs (ClientSpec.settingsSwitches,
 * issue 37.5): each client's own table says which of these it reads, and where.
 */
import { join } from "node:path";
import type { SettingsSwitch, UserSwitchFile } from "./types.js";

const obj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** `disableAllHooks: true` at the top level (Claude Code, Qwen Code, Copilot CLI). */
export const disableAllHooks: SettingsSwitch = {
  key: "disableAllHooks",
  switchedOff: (doc) =>
    doc.disableAllHooks === true
      ? [{ path: ["disableAllHooks"], says: "disableAllHooks: true switched every hook off; removed it" }]
      : [],
};

/** `hooksConfig.enabled: false` (Gemini CLI). */
export const hooksConfigEnabled: SettingsSwitch = {
  key: "hooksConfig.enabled",
  switchedOff: (doc) =>
    obj(doc.hooksConfig) && doc.hooksConfig.enabled === false
      ? [
          {
            path: ["hooksConfig", "enabled"],
            says: "hooksConfig.enabled: false switched every hook off; removed it",
          },
        ]
      : [],
};

/** `hooksConfig.disabled: [..., name, ...]`: the hooks of that name are off (Gemini CLI). */
export function hooksConfigDisabled(name: string): SettingsSwitch {
  return {
    key: "hooksConfig.disabled",
    switchedOff(doc) {
      const list = obj(doc.hooksConfig) ? doc.hooksConfig.disabled : undefined;
      if (!Array.isArray(list)) return [];
      // Removed from the end, so each index still names its item when the edits apply in order.
      return list
        .flatMap((v, i) => (v === name ? [i] : []))
        .reverse()
        .map((i) => ({
          path: ["hooksConfig", "disabled", i],
          says: `hooksConfig.disabled named "${name}", which switched Tandem's hooks off; removed it`,
        }));
    },
  };
}

/** Where the client reads the person's file, with the variables it honours as the client does. */
export function userSwitchPath(
  f: UserSwitchFile,
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): string {
  const moved = f.dirEnv ? env[f.dirEnv] : undefined;
  if (moved) return join(moved, f.file);
  const base = (f.homeEnv ? env[f.homeEnv] : undefined) || home;
  return join(base, f.dir, f.file);
}
