import { SETTING_KEYS } from "./keys.js";
import { PROJECT_CONFIG } from "./root.js";
import type { Config, ConfigFile } from "./schema.js";

/** How the layers combine, key by key from the table (keys.ts). Pure: the files are already read. */

/** The value at a dotted key of a file's data; undefined when absent. */
function valueAt(data: ConfigFile, key: string): unknown {
  let at: unknown = data;
  for (const part of key.split(".")) at = (at as Record<string, unknown> | undefined)?.[part];
  return at;
}

/** A later layer over an earlier one: each key the file holds replaces (or merges into) its setting. */
export function merge(base: Config, file: ConfigFile): Config {
  const out: Record<string, unknown> = { ...base };
  for (const def of SETTING_KEYS) {
    const value = valueAt(file, def.key);
    if (value === undefined) continue;
    const merged = def.type.merge as ((b: unknown, o: unknown) => unknown) | undefined;
    out[def.field] = merged ? merged(base[def.field], value) : value;
  }
  return out as Config;
}

/** The file without a key (a validated file is shared between calls: never changed in place). */
function without(data: ConfigFile, key: string): ConfigFile {
  const [head, ...rest] = key.split(".");
  if (!head || !(head in data)) return data;
  if (rest.length === 0) {
    const { [head]: _dropped, ...kept } = data;
    return kept;
  }
  return { ...data, [head]: without((data[head] ?? {}) as ConfigFile, rest.join(".")) };
}

/** The user file without the keys only the project may set, and a warning for each it held. */
export function withoutProjectOnly(data: ConfigFile, file: string): { data: ConfigFile; warnings: string[] } {
  let kept = data;
  const warnings: string[] = [];
  for (const def of SETTING_KEYS) {
    if (!def.projectOnly || valueAt(kept, def.key) === undefined) continue;
    warnings.push(
      `${file}: ${def.key} is ignored in the user config (only the project's ${PROJECT_CONFIG} may ${def.projectOnly}); move it there.`,
    );
    kept = without(kept, def.key);
  }
  return { data: kept, warnings };
}

const SETTINGS: Record<string, keyof Config> = Object.fromEntries(
  SETTING_KEYS.map((def) => [def.key, def.field]),
);

/** What the setting at (or holding) `key` is now, for "Tandem uses … instead". */
export function inEffect(config: Config, key: string): string | null {
  const client = /^subagents\.clients\.([\w-]+)/.exec(key)?.[1];
  if (client) {
    const launch = config.clients[client as keyof Config["clients"]];
    return launch ? JSON.stringify(launch) : "the built-in command";
  }
  const setting = Object.keys(SETTINGS).find((s) => key === s || key.startsWith(`${s}[`));
  if (!setting) return null;
  const value = config[SETTINGS[setting]!];
  const shown = value === null ? "the default" : JSON.stringify(value);
  return setting === key ? shown : `${shown} for ${setting}`;
}
